# expect: kernel_error: shape mismatch in nl.store
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    out = nl.ndarray((128, 512), dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a)
    nl.store(out[0:128, 0:256], value=t)  # ERROR
    return out
