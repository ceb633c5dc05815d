"""The exact answer in float64 (NumPy only): every row divided by its largest magnitude."""
import numpy as np


def row_scale_ref(x):
    return x / np.abs(x).max(axis=1, keepdims=True)
