# expect: not_found: kernel 'nope' is not defined
# args: a=128x512:float32
# flags: --kernel nope
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    return a
