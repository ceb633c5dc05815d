"""Idioms of public legacy (neuronxcc.nki) kernels that must trace: block-layout PSUM beyond capacity,
'+=' into a fresh PSUM tile, [P, 1] columns from an integer index, partition-aligned broadcasting,
`t != None`, masks folded to Python bools, float limits, NumPy's view of bfloat16 and an empty share."""
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def legacy_idioms(a, b, bias=None):
    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    x = nl.load(a)                                              # [128, 128] bf16
    y = nl.load(b)                                              # [128, 512] bf16
    blocks = nl.ndarray((16, nl.par_dim(128), 512), dtype=nl.float32, buffer=nl.psum)  # 32 KiB: > PSUM
    for i in nl.affine_range(16):
        blocks[i] = nisa.nc_matmul(x, y)
    acc = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.psum)
    acc += nl.matmul(x, y, transpose_x=True)                    # fresh PSUM: the first matmul starts the sum
    s = nl.copy(blocks[3])
    col = s[:, 0]                                               # [128, 1]
    shifted = nl.subtract(s, col)                               # broadcast along the free axis
    m = nl.maximum(s[:, 1], col)                                # [128, 1] with [128, 1]
    assert tuple(m.shape) == (128, 1), m.shape
    v = nl.zeros((128,), dtype=nl.float32, buffer=nl.sbuf)      # a bare partition vector
    w = nl.add(v, col)
    assert tuple(w.shape) == (128, 1), w.shape                  # aligned on partitions, not NumPy's [128, 128]
    if bias != None:  # noqa: E711  (a Python test, as kernels write it)
        shifted = shifted + 1.0
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(512)[None, :]
    nl.store(out[i_p, i_f], shifted, mask=(i_f < 512) & (3 < 4))
    low = nl.fp32.min + nl.finfo(nl.bfloat16).max * 0
    itemsize = np.dtype(nl.bfloat16).itemsize
    assert itemsize == 2 and low < -1e38
    empty = a[nl.ds(0, 0), :]
    assert empty.shape[0] == 0
    dummy = nl.copy(acc)
    return out
