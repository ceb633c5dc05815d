# expect: timeout: timed out after 1 s at
# args: a=128x512:float32
# flags: --timeout 1
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    n = 0
    while True: n += 1  # ERROR
    return a
