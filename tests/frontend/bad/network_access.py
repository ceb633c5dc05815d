# expect: unsupported: network access is disabled
# args: a=128x512:float32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
import socket


@nki.jit
def k(a):
    s = socket.socket()  # ERROR
    return a
