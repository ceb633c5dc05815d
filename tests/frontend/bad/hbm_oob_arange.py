# expect: kernel_error: index expression reaches [128, 255]
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    i_p = nl.arange(128)[:, None]
    i_f = nl.arange(512)[None, :]
    t = nl.load(a[i_p + 128, i_f])  # ERROR
    return a
