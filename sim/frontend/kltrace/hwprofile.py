"""The hardware limits the tracer checks, read from a hardware profile (resources/hw/NAME.json).

The profiles are the one place the on-chip sizes live (each figure with its source); the simulator reads
the same files (sim/hw/HardwareProfile). `HW` holds the limits of the profile chosen with the front end's
`--hw` (a bundled name or a .json path). Without `--hw` the front end checks the profile the simulator will
pick for the kernel's API (default_for: trn2 for nki.* kernels, `DEFAULT` trn1 for legacy ones), chosen as
soon as the kernel's module has imported the API; the C++ side passes `--hw` when the user or the task
(task.json `hardware`) names the hardware before tracing (core/run/RunPipeline).
"""
import json
import os

from .errors import TraceError

# kltrace/ -> frontend/ -> sim/ -> the data root, which holds resources/ in the source tree and when installed.
PROFILE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))), "resources", "hw")
DEFAULT = "trn1"


class Limits:
    """On-chip sizes of one profile: partitions, SBUF and PSUM bytes per partition, PSUM bank bytes."""
    __slots__ = ("name", "pmax", "sbuf_partition_bytes", "psum_partition_bytes", "psum_bank_bytes")

    def __init__(self):
        self.name = None
        self.pmax = self.sbuf_partition_bytes = self.psum_partition_bytes = self.psum_bank_bytes = 0

    @property
    def psum_banks(self):
        return self.psum_partition_bytes // self.psum_bank_bytes

    @property
    def psum_fmax(self):
        """float32 elements of one PSUM bank per partition (nl.tile_size.psum_fmax)."""
        return self.psum_bank_bytes // 4


def profile_path(spec):
    """A bundled profile's name (trn2) or a path to a profile's .json."""
    if spec.endswith(".json") or os.sep in spec:
        return spec
    return os.path.join(PROFILE_DIR, spec + ".json")


def _field(doc, path, section, key):
    entry = doc.get(section, {}).get(key) if isinstance(doc.get(section), dict) else None
    value = entry.get("value") if isinstance(entry, dict) else None
    if type(value) is not int or value <= 0:
        raise TraceError("invalid_argument", f"{path}: {section}.{key}.value must be a positive integer",
                         "check the hardware profile against resources/hw/trn2.json")
    return value


def read(spec):
    """The Limits of one profile; a missing or malformed file is a TraceError naming it."""
    path = profile_path(spec)
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise TraceError("invalid_argument", f"hardware profile {spec!r}: cannot read {path}: {e.strerror}",
                         "use trn1, trn2, trn3 or the path of a profile .json") from None
    except ValueError as e:
        raise TraceError("invalid_argument", f"{path}: not valid JSON: {e}") from None
    if not isinstance(doc, dict):
        raise TraceError("invalid_argument", f"{path}: a hardware profile is a JSON object")
    limits = Limits()
    limits.name = doc.get("name") or spec
    limits.pmax = _field(doc, path, "sbuf", "partitions")
    limits.sbuf_partition_bytes = _field(doc, path, "sbuf", "partition_bytes")
    limits.psum_partition_bytes = _field(doc, path, "psum", "partition_bytes")
    limits.psum_bank_bytes = _field(doc, path, "psum", "bank_bytes")
    return limits


def select(spec):
    """Make `spec`'s limits the ones every check reads (HW is updated in place: modules keep the object)."""
    limits = read(spec)
    for name in Limits.__slots__:
        setattr(HW, name, getattr(limits, name))
    return HW


def default_for(api_seen):
    """Without --hw: the profile the simulator picks for the kernel's API when nothing names one (trn2 for
    nki.* kernels, trn1 for legacy ones: sim/hw/HardwareChoice), so that the two check the same sizes."""
    return "trn2" if "nki" in api_seen and "legacy" not in api_seen else DEFAULT


HW = Limits()
select(DEFAULT)
CHOSEN = False  # whether --hw named the profile (cli.py); else runner.py applies default_for() once the kernel loads
