"""sbuf-spill: the same column-block sum with every quarter of the rows' data resident at once (256 KiB per
partition of live tiles: they spill) or done a chunk at a time (each chunk's tiles fit)."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def all_resident(a):
    P, F = a.shape
    Q = F // 4
    out = nl.ndarray((P, Q), dtype=a.dtype, buffer=nl.shared_hbm)
    parts = []
    for k in range(4):
        t = nl.ndarray((P, Q), dtype=a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=t, src=a[0:P, k * Q:(k + 1) * Q])
        parts.append(t)
    s01 = nl.ndarray((P, Q), dtype=a.dtype, buffer=nl.sbuf)
    nisa.tensor_tensor(dst=s01, data1=parts[0], data2=parts[1], op=nl.add)
    s23 = nl.ndarray((P, Q), dtype=a.dtype, buffer=nl.sbuf)
    nisa.tensor_tensor(dst=s23, data1=parts[2], data2=parts[3], op=nl.add)
    total = nl.ndarray((P, Q), dtype=a.dtype, buffer=nl.sbuf)
    nisa.tensor_tensor(dst=total, data1=s01, data2=s23, op=nl.add)
    nisa.dma_copy(dst=out, src=total)
    return out


@nki.jit
def chunked(a):
    P, F = a.shape
    Q = F // 4
    W = Q // 4
    out = nl.ndarray((P, Q), dtype=a.dtype, buffer=nl.shared_hbm)
    for c in nl.sequential_range(4):
        total = nl.ndarray((P, W), dtype=a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=total, src=a[0:P, c * W:(c + 1) * W])
        for k in range(1, 4):
            t = nl.ndarray((P, W), dtype=a.dtype, buffer=nl.sbuf)
            nisa.dma_copy(dst=t, src=a[0:P, k * Q + c * W:k * Q + (c + 1) * W])
            nisa.tensor_tensor(dst=total, data1=total, data2=t, op=nl.add)
        nisa.dma_copy(dst=out[0:P, c * W:(c + 1) * W], src=total)
    return out
