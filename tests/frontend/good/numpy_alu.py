"""NumPy functions as ALU and activation operators; the IR must name them as the nl ops do."""
import numpy as np
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def k(a, b):
    x = nl.load(a)
    y = nl.load(b)
    hi = nisa.tensor_reduce(np.max, x, axis=(1,))
    lo = nisa.tensor_reduce(np.min, x, axis=(1,), keepdims=True)
    total = nisa.tensor_reduce(np.sum, x, axis=1)
    q = nisa.tensor_tensor(x, y, np.true_divide)
    d = nisa.tensor_tensor(x, y, np.divide)
    m = nisa.tensor_tensor(x, y, np.maximum)
    s = nisa.tensor_scalar(x, np.multiply, hi, op1=np.add, operand1=1.0)
    e = nisa.activation(np.exp, x)
    ab = nisa.activation(np.abs, x)
    ref_hi = nl.max(x, axis=1)
    ref_lo = nl.min(x, axis=1)
    return a
