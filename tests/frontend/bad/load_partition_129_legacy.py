# expect: kernel_error: partition dimension 129
# args: a=129x64:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    t = nl.load(a)  # ERROR
    return t
