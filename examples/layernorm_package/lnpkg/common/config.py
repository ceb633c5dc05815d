"""Settings shared by the package's kernels: an enum and a plain-object config."""
import enum
from dataclasses import dataclass

import nki.language as nl


class Affine(enum.Enum):
    NONE = 0      # normalise only
    SCALE = 1     # times gamma
    SCALE_SHIFT = 2  # times gamma plus beta


@dataclass
class NormConfig(nl.NKIObject):
    eps: float = 1e-5
    affine: Affine = Affine.SCALE_SHIFT
    stats_chunk: int = 512   # bn_stats reads at most 512 elements per partition
