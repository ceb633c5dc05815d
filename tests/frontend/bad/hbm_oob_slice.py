# expect: kernel_error: slice 512:1024 is out of bounds
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    t = nl.load(a[0:128, 512:1024])  # ERROR
    return a
