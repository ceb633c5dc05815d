# expect: kernel_error: over the partition axis
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    t = nl.load(a)
    s = nl.sum(t, axis=0)  # ERROR
    return a
