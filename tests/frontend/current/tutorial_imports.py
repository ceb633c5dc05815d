"""Like the tutorials: framework imports at the top that only the test driver uses, plus legacy
compiler options at module level."""
import numpy as np
import scipy.special  # noqa: F401
import torch
from torch_xla.core import xla_model as xm  # noqa: F401
from tqdm import tqdm  # noqa: F401
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.typing as nt

sb_mod = nki.compiler.sbuf.mod_alloc


@nki.compiler.skip_middle_end_transformations
@nki.jit(additional_compile_opt="--internal-example")
def legacy_scaled(a: nt.tensor, factor: float = 2.0):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    nl.store(out, t * factor)
    return out


if __name__ == "__main__":
    x = torch.rand(128, 64)
    print(legacy_scaled(x), np.float32)
