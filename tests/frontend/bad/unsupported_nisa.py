# expect: unsupported: unsupported NKI call nisa.dma_transpose
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import neuronxcc.nki.isa as nisa


@nki.jit
def k(a):
    t = nl.load(a)
    u = nisa.dma_transpose(t)  # ERROR
    return a
