# expect: kernel_error: more than one 2 KiB bank
# args: a=128x1024:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    acc = nl.zeros((128, 1024), nl.float32, buffer=nl.psum)  # ERROR
    return a
