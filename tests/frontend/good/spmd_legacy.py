"""Each program instance of a 2-D grid scales one [128, 256] tile (legacy API)."""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def scale(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    i = nl.program_id(0)
    j = nl.program_id(1)
    assert nl.num_programs(0) * 128 == a.shape[0]
    t = nl.load(a[i * 128:(i + 1) * 128, j * 256:(j + 1) * 256])
    nl.store(out[i * 128:(i + 1) * 128, j * 256:(j + 1) * 256], value=t * 2.0)
    return out
