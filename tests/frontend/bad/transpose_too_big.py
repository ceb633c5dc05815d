# expect: kernel_error: exceeds 128x128
# args: a=128x256:bfloat16
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    t = nl.load(a)
    u = nl.transpose(t)  # ERROR
    return a
