"""Rows not a multiple of 128: the last tile is masked (legacy arange/mask idiom)."""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def relu_rows(a):
    n, d = a.shape
    out = nl.ndarray((n, d), dtype=a.dtype, buffer=nl.shared_hbm)
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(d)[None, :]
    for t in nl.affine_range((n + 127) // 128):
        rows = t * 128 + i_p
        x = nl.load(a[rows, i_f], mask=(rows < n))
        y = nl.relu(x, mask=(rows < n))
        nl.store(out[rows, i_f], value=y, mask=(rows < n))
    return out
