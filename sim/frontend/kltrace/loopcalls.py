"""Whether a replicable loop body (loopcheck.py) calls only front-end code, known before it runs.

Replication (replicate.py) is sound only if the body runs no kernel code besides its own statements: a kernel
helper or a built-in called by the kernel (list.append, min) could keep state or branch on the loop variable.
A profile hook can watch that while iterations run, but it sees every call the front end makes too, built-in
ones included, and costs more than a nested loop's replication saves. So when loopcheck could name every
called function by a name or attribute chain, those are resolved once when the loop starts, and the names the
body reads from outside must hold inert values (nothing through which kernel code could be called back).
"""
import os
import sys
import types

from .tracer import T


def spellings(path):
    """Every way a front-end file may be named in code objects: as imported (a sys.path entry such as
    'tests/../sim/frontend' stays unnormalised there), made absolute and normalised, and with links resolved."""
    return tuple(dict.fromkeys((path, os.path.abspath(path), os.path.realpath(path))))


FRONTEND = tuple(p + os.sep for p in spellings(os.path.dirname(os.path.dirname(__file__))))
_MISSING = object()


def calls_checked(frame, shape):
    """Whether every call the body makes is known to run front-end code only, so no profile hook is needed:
    the chains of shape.calls resolve to front-end functions and classes, and the names the body reads from
    outside hold inert values (nothing through which kernel code could be called back)."""
    if shape.calls is None:
        return False
    local, glob, builtins = frame.f_locals, frame.f_globals, frame.f_builtins

    def lookup(name):
        for d in (local, glob, builtins):
            v = d.get(name, _MISSING)
            if v is not _MISSING:
                return v
        return _MISSING

    for chain in shape.calls:
        obj = lookup(chain[0])
        for attr in chain[1:]:
            if not (isinstance(obj, types.ModuleType) and _front_end_file(getattr(obj, "__file__", None))
                    or _front_end_type(type(obj))):
                return False  # an attribute of something else could run its code
            obj = getattr(obj, attr, _MISSING)
        if obj is _MISSING or not _front_end_callable(obj):
            return False
    return all(_inert(lookup(n), 0) for n in shape.reads)


def _front_end_file(f):
    return bool(f) and f.startswith(FRONTEND)


_type_seen = {}  # type -> whether a front-end module defines it


def _front_end_type(t):
    ok = _type_seen.get(t)
    if ok is None:
        ok = _type_seen[t] = _front_end_file(getattr(sys.modules.get(t.__module__), "__file__", None))
    return ok


def _front_end_callable(obj, depth=0):
    """A front-end function (holding nothing that calls kernel code: a decorator's closure may wrap a kernel
    function), class or method. Callable instances are refused: a front-end object such as an @nki.jit kernel
    runs the kernel's code when called."""
    if isinstance(obj, types.FunctionType):
        return _front_end_file(obj.__code__.co_filename) and depth < 3 and \
            all(_cell_inert(c, depth + 1) for c in obj.__closure__ or ()) and \
            all(_inert(d, depth + 1) for d in obj.__defaults__ or ())
    if isinstance(obj, type):
        return _front_end_type(obj)
    if isinstance(obj, types.MethodType):
        return _front_end_callable(obj.__func__, depth + 1) and _inert(obj.__self__, depth + 1)
    return False


def _cell_inert(cell, depth):
    try:
        return _inert(cell.cell_contents, depth)
    except ValueError:  # a cell not filled yet
        return True


_SCALARS = (int, float, bool, str, bytes, type(None), complex)


def _inert(v, depth):
    """Whether reading (not calling) v can run no kernel code: scalars, containers of inert values, modules that
    are not kernel files, front-end functions, classes and objects."""
    t = type(v)
    if t in _SCALARS:
        return True
    if t is tuple or t is list or t is frozenset:
        return depth < 3 and len(v) <= 256 and all(_inert(x, depth + 1) for x in v)
    if t is dict:
        return depth < 3 and len(v) <= 256 and all(_inert(x, depth + 1) and _inert(y, depth + 1) for x, y in v.items())
    if isinstance(v, types.ModuleType):
        f = getattr(v, "__file__", None)
        return not (f and T.kernel_dir and f.startswith(T.kernel_dir))
    if isinstance(v, (types.FunctionType, type, types.MethodType)):
        return _front_end_callable(v, depth)
    return not callable(v) and _front_end_type(t)


__all__ = ["FRONTEND", "calls_checked", "spellings"]
