# expect: kernel_error: ValueError: tile count must be even
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl



def helper(n):
    if n % 2:
        raise ValueError("tile count must be even")  # ERROR


@nki.jit
def k(a):
    helper(3)
    return a
