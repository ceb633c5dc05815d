"""A relative import of a module that does not exist in the package: a real ImportError."""
import nki

from ..util.missing_module import helper  # MISSING


@nki.jit
def k(x):
    return x
