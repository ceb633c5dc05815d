"""redundant-loads: every row band reloads the same eight [128, 512] tiles of `w` inside its loop, or loads them once
before the loop (they fit in SBUF together: 16 KiB per partition)."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit
def reload_inside(a, w):
    rows, cols = a.shape
    out = nl.ndarray((rows, 512), dtype=a.dtype, buffer=nl.shared_hbm)
    for band in nl.affine_range(rows // 128):
        r0 = band * 128
        acc = nl.ndarray((128, 512), dtype=a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=acc, src=a[r0:r0 + 128, 0:512])
        for j in range(8):
            wt = nl.ndarray((128, 512), dtype=w.dtype, buffer=nl.sbuf)
            nisa.dma_copy(dst=wt, src=w[0:128, j * 512:(j + 1) * 512])
            nxt = nl.ndarray((128, 512), dtype=a.dtype, buffer=nl.sbuf)
            nisa.tensor_tensor(dst=nxt, data1=acc, data2=wt, op=nl.multiply)
            acc = nxt
        nisa.dma_copy(dst=out[r0:r0 + 128, 0:512], src=acc)
    return out


@nki.jit
def load_once(a, w):
    rows, cols = a.shape
    out = nl.ndarray((rows, 512), dtype=a.dtype, buffer=nl.shared_hbm)
    ws = []
    for j in range(8):
        wt = nl.ndarray((128, 512), dtype=w.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=wt, src=w[0:128, j * 512:(j + 1) * 512])
        ws.append(wt)
    for band in nl.affine_range(rows // 128):
        r0 = band * 128
        acc = nl.ndarray((128, 512), dtype=a.dtype, buffer=nl.sbuf)
        nisa.dma_copy(dst=acc, src=a[r0:r0 + 128, 0:512])
        for j in range(8):
            nxt = nl.ndarray((128, 512), dtype=a.dtype, buffer=nl.sbuf)
            nisa.tensor_tensor(dst=nxt, data1=acc, data2=ws[j], op=nl.multiply)
            acc = nxt
        nisa.dma_copy(dst=out[r0:r0 + 128, 0:512], src=acc)
    return out
