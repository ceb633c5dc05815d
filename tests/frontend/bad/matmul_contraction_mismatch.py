# expect: kernel_error: contraction mismatch
# args: a=128x128:bfloat16 b=64x512:bfloat16
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def k(a, b):
    x = nl.load(a)
    y = nl.load(b)
    r = nisa.nc_matmul(x, y)  # ERROR
    return a
