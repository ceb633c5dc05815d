"""The exact answer in float64 (NumPy only): softmax over each row."""
import numpy as np


def softmax_ref(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)
