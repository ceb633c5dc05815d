# expect: kernel_error: bn_stats free size 1024 exceeds 512
# args: a=128x1024:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def k(a):
    t = nl.load(a)
    s = nisa.bn_stats(t)  # ERROR
    return a
