"""Source locations of several calls on one line and in a loop; scalar operands 0.0 and -0.0 (legacy API)."""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


def scaled(t, s):
    return nl.multiply(t, s)


@nki.jit
def locs_and_scalars(a):
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for r in nl.affine_range(a.shape[0] // 128):
        x = nl.load(a[r * 128:(r + 1) * 128, :])
        y = nl.add(x, 0.0)
        z = nl.add(y, -0.0)
        w = scaled(z, 2.0); v = scaled(w, 0.5)  # noqa: E702  (two calls through a helper on one line)
        nl.store(out[r * 128:(r + 1) * 128, :], value=nl.add(v, 0.0))
    return out
