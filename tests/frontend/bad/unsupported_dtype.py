# expect: unsupported: dtype 'complex64'
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    t = nl.ndarray((128, 512), dtype="complex64", buffer=nl.sbuf)  # ERROR
    return a
