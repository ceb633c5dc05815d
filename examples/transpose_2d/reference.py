"""The exact answer (NumPy only): the transpose."""
import numpy as np


def transpose_ref(x):
    return np.transpose(x).copy()
