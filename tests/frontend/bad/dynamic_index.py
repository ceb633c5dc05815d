# expect: unsupported: indexing with an HBM tensor of indices
# args: a=128x512:float32 idx=128x1:int32
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def k(a, idx):
    t = nl.load(a[idx, 0:512])  # ERROR
    return a
