"""Binds kltrace._klaccel (sim/frontend/accel/, built by CMake for Debian's python3) when it is there: the plain
trace's most frequent calls in C. Tensor.__getitem__, IndexExpr.__add__ / __radd__, matmul_fast.fresh_matmul,
Tensor.__iadd__, Tensor.__setitem__ and isa._nc_matmul (the body of both nisa.nc_matmul wrappers) then run C
first. Each of these C functions takes only the common case and passes everything else to the Python function it
replaces (kept in PYTHON).

Set KL_TRACE_ACCEL=0 to keep Python. STATUS says which is bound and why.
"""
import importlib.machinery
import importlib.util
import os

from . import dtypes, isa, matmul_fast, matmul_fused, ops, views
from .indexing import IndexExpr
from .tensor import INDIRECT_SEEN, _PENDING
from .tracer import T, Buffer, Instr
from .views import Tensor

PYTHON = {}  # name -> the Python function the C one falls back to (the reference)
STATUS = "python: not installed yet"


def _load():
    """The module, or why not: beside these modules in a build tree; PREFIX/lib/kernellens in an installed program
    (the front end is PREFIX/share/kernellens/sim/frontend: no compiled code under share/)."""
    try:
        from . import _klaccel
        return _klaccel
    except ImportError as e:  # not built (no python3-dev), or built for another interpreter
        why = str(e)
    installed = os.path.join(os.path.dirname(os.path.abspath(__file__)), *[os.pardir] * 5, "lib", "kernellens")
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = os.path.normpath(os.path.join(installed, "_klaccel" + suffix))
        if os.path.isfile(path):
            loader = importlib.machinery.ExtensionFileLoader(__package__ + "._klaccel", path)
            spec = importlib.util.spec_from_file_location(loader.name, path, loader=loader)
            try:
                module = importlib.util.module_from_spec(spec)
                loader.exec_module(module)
                return module
            except ImportError as e:
                return f"{path}: {e}"
    return why


def install():
    """Called once, when api.py (which every kernel's NKI imports reach) is imported."""
    global STATUS
    if PYTHON:  # bound already: the classes hold the C functions now
        return
    PYTHON.update(getitem=Tensor.__getitem__, add=IndexExpr.__add__, fresh_matmul=matmul_fast.fresh_matmul,
                  iadd=Tensor.__iadd__, setitem=Tensor.__setitem__, nc_matmul=isa.BODIES_CLASSIC["nc_matmul"])
    if os.environ.get("KL_TRACE_ACCEL", "1") == "0":
        STATUS = "python: KL_TRACE_ACCEL=0"
        return
    _klaccel = _load()
    if isinstance(_klaccel, str):
        STATUS = "python: " + _klaccel
        return
    parts = dict(PYTHON, Tensor=Tensor, IndexExpr=IndexExpr, Buffer=Buffer, Instr=Instr,
                 FusedResult=matmul_fused.FusedResult, templates=views._expr_templates, T=T,
                 INDIRECT_SEEN=INDIRECT_SEEN, _PENDING=_PENDING, SIZES=dtypes.SIZES,
                 _last=matmul_fast._last, _PAIRS=matmul_fast._PAIRS, _fixed=matmul_fast._fixed,
                 _PLUS_EQUALS=matmul_fused._PLUS_EQUALS, _open=matmul_fused._open,
                 materialise=matmul_fused.materialise, into_sum=matmul_fused.into_sum,
                 _WHOLE_PSUM=matmul_fused._WHOLE_PSUM, PLUS_EQUALS_STORED=matmul_fused.PLUS_EQUALS_STORED,
                 _MM_SHARED=ops._MM_SHARED, mm_attrs=ops.mm_attrs, isa_file=isa.__file__)
    try:
        c = _klaccel.install(parts)
    except (TypeError, KeyError) as e:  # a module older than these classes' slots or this list
        STATUS = f"python: {e}"
        return
    Tensor.__getitem__ = c["getitem"]
    IndexExpr.__add__ = IndexExpr.__radd__ = c["add"]
    Tensor.__iadd__ = c["iadd"]
    Tensor.__setitem__ = c["setitem"]
    matmul_fast.fresh_matmul = c["fresh_matmul"]
    for wrappers in (isa._LEGACY, isa._CURRENT):  # each generated wrapper calls its own `_body`
        wrappers["nc_matmul"].__globals__["_body"] = c["nc_matmul"]
    STATUS = "c: " + _klaccel.__file__
