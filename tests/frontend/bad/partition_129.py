# expect: kernel_error: partition dimension 129
# args: a=129x512:float32
import nki
import nki.language as nl


@nki.jit
def k(a):
    t = nl.ndarray((129, 512), dtype=nl.float32, buffer=nl.sbuf)  # ERROR
    return t
