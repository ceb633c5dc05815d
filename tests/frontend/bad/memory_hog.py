# expect: kernel_error: out of memory
# args: a=128x512:float32
# flags: --memory-mb 300
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a):
    junk = bytearray(2 * 1024 * 1024 * 1024)  # ERROR
    return a
