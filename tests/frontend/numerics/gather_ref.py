import numpy as np


def gather_scatter(table, ids):
    out = np.full((128, 64), np.nan)
    out[ids[:, 0].astype(int)] = table[ids[:, 0].astype(int)]
    return out
