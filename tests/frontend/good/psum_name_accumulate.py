"""`acc += nl.matmul(...)` on a name, then `res[...] = acc`: the copy must be recorded."""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a, b):
    out = nl.ndarray((128, 512), dtype=nl.float32, buffer=nl.shared_hbm)
    acc = nl.zeros((128, 512), nl.float32, buffer=nl.psum)
    acc += nl.matmul(nl.load(a), nl.load(b), transpose_x=True)
    res = nl.ndarray((128, 512), nl.float32, buffer=nl.sbuf)
    res[...] = acc
    nl.store(out, value=res)
    return out
