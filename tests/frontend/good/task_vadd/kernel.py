"""Vector add over row bands of 128 (legacy API)."""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def vadd(a, b):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for r in nl.affine_range(a.shape[0] // 128):
        x = nl.load(a[r * 128:(r + 1) * 128, :])
        y = nl.load(b[r * 128:(r + 1) * 128, :])
        z = x + y
        nl.store(out[r * 128:(r + 1) * 128, :], value=z)
    return out
