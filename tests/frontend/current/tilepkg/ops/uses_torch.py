"""Imports a framework it then really uses inside the kernel: the stand-in must fail at that line."""
import nki
import nki.language as nl
import torch


@nki.jit
def uses_torch(x):
    out = nl.ndarray(x.shape, dtype=x.dtype, buffer=nl.shared_hbm)
    zeros = torch.zeros(4)  # USED
    return out
