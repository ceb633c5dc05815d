# expect: invalid_argument: arguments do not match k(a, b): missing 'b'
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit  # ERROR
def k(a, b):
    return a
