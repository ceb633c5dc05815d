# expect: parse: expected ':'
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

@nki.jit
def k(a)  # ERROR
    return a
