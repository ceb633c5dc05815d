# expect: kernel_error: shape mismatch in nl.add: [128, 512] and [128, 256]
# args: a=128x512:float32 b=128x256:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a, b):
    x = nl.load(a)
    y = nl.load(b)
    z = nl.add(x, y)  # ERROR
    return a
