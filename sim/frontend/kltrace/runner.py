"""Loads a kernel file, launches the chosen kernel over its SPMD grid and renders the IR."""
import gc
import importlib
import itertools
import json
from itertools import chain
from operator import attrgetter, itemgetter
import os
import sys
import types

from . import arguments, hwprofile, imports, irbin, irjson
from .api import Kernel
from .errors import TraceError
from .loops import traced_range
from .tracer import T
from .views import Tensor

FRONTEND_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIM_DIR = os.path.join(FRONTEND_DIR, "shims")
NUMPY_SHIM_DIR = os.path.join(FRONTEND_DIR, "numpy_shim")
_RESERVED = {"nki", "neuronxcc", "numpy", "kltrace"}


class KernelSpec:
    """What to run: the kernel file and function, tensor args (name, shape, dtype), scalars and grid."""

    def __init__(self, kernel_file, kernel_name, args, grid, scalars, base_dir=None, package_root=None):
        self.kernel_file = kernel_file
        self.package_root = package_root
        self.list_kernels = False
        self.kernel_name = kernel_name
        self.args = args
        self.grid = tuple(grid) if grid else (1,)
        self.lnc = 1  # logical NeuronCore degree; the grid already splits over it (cli.lnc_grid)
        self.scalars = scalars or {}
        self.base_dir = base_dir


def prepare_imports():
    sys.path.insert(0, SHIM_DIR)
    force_shim = os.environ.get("KLTRACE_NUMPY_SHIM") == "1"
    if force_shim:
        sys.path.insert(0, NUMPY_SHIM_DIR)
        return
    finder = imports.SystemNumpyFinder()
    if finder.find_spec("numpy") is None:
        sys.path.insert(1, NUMPY_SHIM_DIR)
    else:  # imported only if the kernel does (kernels compute constants with it, e.g. np.finfo)
        sys.meta_path.append(finder)


def load_source(path):
    """Read and compile the kernel file; syntax errors become `parse` errors with line and column."""
    real = os.path.realpath(path)
    if not os.path.isfile(real):
        raise TraceError("not_found", f"kernel file not found: {path}", "check --kernel-file / kernel_file in task.json")
    try:
        with open(real, "rb") as fh:
            source = fh.read()
    except OSError as e:
        raise TraceError("io", f"cannot read kernel file {path}: {e.strerror}")
    try:
        code = compile(source, real, "exec", dont_inherit=True)
    except SyntaxError as e:
        name = os.path.basename(path)
        raise TraceError("parse", f"{name}:{e.lineno}:{e.offset or 0}: {e.msg}",
                         "fix the syntax error in the kernel source", file=name, line=e.lineno)
    return real, code


def innermost_kernel_frame(tb):
    found = None
    while tb is not None:
        if T.file_id(tb.tb_frame.f_code.co_filename) >= 0:
            found = (tb.tb_frame, tb.tb_lineno)
        tb = tb.tb_next
    return found


def locate(err, tb):
    """Fill a TraceError's file:line from the innermost kernel frame of a traceback."""
    if err.file is None:
        hit = innermost_kernel_frame(tb)
        if hit is not None:
            err.file, err.line = T.files[T.file_id(hit[0].f_code.co_filename)], hit[1]
    return err


def run_module(real, code):
    stem = os.path.splitext(os.path.basename(real))[0]
    name = stem if stem not in _RESERVED and stem not in sys.modules else f"kltrace_kernel_{stem}"
    module = types.ModuleType(name)
    module.__file__ = real
    module.__dict__["range"] = traced_range
    sys.modules[name] = module
    exec(code, module.__dict__)
    return module


def pick_kernel(module, real, wanted):
    own = own_kernels(real)
    if wanted:
        obj = module.__dict__.get(wanted)
        if obj is None:
            names = ", ".join(k.__name__ for k in own) or "none"
            raise TraceError("not_found", f"kernel '{wanted}' is not defined in {os.path.basename(real)}",
                             f"decorated kernels in the file: {names}")
        if isinstance(obj, Kernel):
            return obj.func
        if callable(obj):
            return obj
        raise TraceError("invalid_argument", f"'{wanted}' in {os.path.basename(real)} is not a function")
    if len(own) == 1:
        return own[0].func
    if not own:
        raise TraceError("invalid_argument", f"no @nki.jit kernel found in {os.path.basename(real)}",
                         "decorate the kernel with @nki.jit or name it with --kernel")
    raise TraceError("invalid_argument",
                     f"{os.path.basename(real)} defines several kernels: {', '.join(k.__name__ for k in own)}",
                     "choose one with --kernel NAME")


def _mark_outputs(result, arg_bufs):
    stack = [result]
    while stack:
        r = stack.pop()
        if isinstance(r, Tensor):
            if r.buf.memory == "hbm" and r.buf.role != "input":
                r.buf.role = "output"
        elif isinstance(r, (tuple, list)):
            stack.extend(r)
        elif isinstance(r, dict):
            stack.extend(r.values())
    written = set(map(id, map(itemgetter(0), chain.from_iterable(map(attrgetter("dst"), T.instrs)))))
    for b in arg_bufs:
        if id(b) in written:
            b.role = "output"


def launch(func, positional, keywords, spec):
    result = None
    for pid in itertools.product(*[range(g) for g in spec.grid]):
        T.pid = pid
        T.shared_ordinal = 0
        result = func(*positional, **keywords)
    if T.values:
        T.result = result
    tensors = positional + [v for v in keywords.values() if isinstance(v, Tensor)]
    _mark_outputs(result, [t.buf for t in tensors])


def own_kernels(real):
    return [k for k in Kernel.registry if getattr(k.func, "__code__", None) is not None
            and os.path.realpath(k.func.__code__.co_filename) == real]


def trace(spec):
    """Run the kernel described by spec; returns the IR text, or its binary form with spec.binary: bytes, or with
    spec.parts too a list of pieces (irbin.render_parts); with spec.list_kernels, the JSON list of the file's
    kernels. Raises TraceError."""
    real, code = load_source(spec.kernel_file)
    module_name, package_root = imports.install(real, spec.package_root)
    base = os.path.realpath(spec.base_dir or os.path.dirname(real))
    if package_root is not None:
        base = os.path.commonpath([base, package_root])
    T.kernel_dir = base + "/"
    if not real.startswith(T.kernel_dir):
        T.kernel_dir = os.path.dirname(real) + "/"
    T.file_id(real)
    T.grid = spec.grid
    T.lnc = spec.lnc
    T.pid = tuple(0 for _ in spec.grid)
    try:
        module = run_module(real, code) if module_name is None else importlib.import_module(module_name)
        if spec.list_kernels:
            return json.dumps({"kernels": arguments.describe_kernels(own_kernels(real), T.files[0])}, indent=1)
        func = pick_kernel(module, real, spec.kernel_name)
        if not hwprofile.CHOSEN:  # the module has imported its NKI API by now: check what the simulator will use
            hwprofile.select(hwprofile.default_for(T.api_seen))
        decl = ((0, func.__code__.co_firstlineno),) if hasattr(func, "__code__") else ((0, 0),)
        try:
            positional, keywords = arguments.bind(func, spec, module.__dict__, decl)
        except TraceError as e:
            if e.file is None:  # an argument mistake points at the kernel's def line
                e.file, e.line = T.files[T.file_id(func.__code__.co_filename)], func.__code__.co_firstlineno
            raise
        T.stop_code = launch.__code__
        gc.disable()  # the trace only grows; cyclic collection would rescan it over and over
        launch(func, positional, keywords, spec)
    except TraceError as e:
        raise locate(e, e.__traceback__)
    except MemoryError as e:
        err = TraceError("kernel_error", "out of memory while tracing the kernel",
                         "the kernel allocates too much Python memory; raise --memory-mb or shrink the problem")
        raise locate(err, e.__traceback__)
    except RecursionError as e:
        raise locate(TraceError("kernel_error", "maximum recursion depth exceeded in the kernel"), e.__traceback__)
    except (Exception, SystemExit) as e:  # the kernel's own exception: report it, never a traceback
        msg = f"{type(e).__name__}: {e}"
        err = TraceError("kernel_error", f"the kernel raised {msg}", "fix the kernel code at this line")
        raise locate(err, e.__traceback__)
    if T.values:  # value mode writes the numerics document instead (numerics/run.py)
        return func.__name__
    api = "nki" if "nki" in T.api_seen and "legacy" not in T.api_seen else "legacy"
    args = [{"name": n, "shape": list(s), "dtype": d} for n, s, d in spec.args]
    if getattr(spec, "binary", False):
        render = irbin.render_parts if getattr(spec, "parts", False) else irbin.render  # parts: cli.write_output
        return render(T, func.__name__, api, args)
    return irjson.render(T, func.__name__, api, args)
