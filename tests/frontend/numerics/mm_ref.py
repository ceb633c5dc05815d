import numpy as np


def mm(lhsT, rhs):
    return lhsT.T @ rhs


def raises(lhsT, rhs):
    scale = np.sqrt(lhsT.shape[0])
    return lhsT.T @ rhs / undefined_name * scale  # line 10


def wrong_shape(lhsT, rhs):
    return (lhsT.T @ rhs)[:, :-1]


def endless(lhsT, rhs):
    while True:
        pass
