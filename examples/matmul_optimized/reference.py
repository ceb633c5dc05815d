"""The exact answer in float64 (NumPy only): result[M, N] = lhsT.T @ rhs."""
import numpy as np


def matmul_ref(lhsT, rhs):
    return np.matmul(lhsT.T, rhs)
