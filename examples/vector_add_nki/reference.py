"""The exact answer in float64 (NumPy only): a + b."""


def add_ref(a, b):
    return a + b
