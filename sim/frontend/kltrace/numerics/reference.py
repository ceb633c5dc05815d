"""Loading and calling the task's reference function (user code: its errors name its own file and line)."""
import importlib.util
import inspect
import os

import numpy as np

from ..errors import TraceError


def parse(text):
    """'reference.py:func' -> (file, func)."""
    file, sep, func = (text or "").rpartition(":")
    if not sep or not file.endswith(".py") or not func.isidentifier():
        raise TraceError("invalid_argument", f"bad reference '{text}'", "expected FILE.py:FUNCTION, e.g. reference.py:ref")
    return file, func


def load(text, base):
    file, func = parse(text)
    path = os.path.realpath(os.path.join(base, file))
    if not os.path.isfile(path):
        raise TraceError("not_found", f"reference file not found: {file}", "the reference lives in the task folder")
    spec = importlib.util.spec_from_file_location(f"kl_reference_{abs(hash(path))}", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except SyntaxError as e:
        raise TraceError("parse", f"{file}:{e.lineno}: {e.msg}", "fix the reference", file=file, line=e.lineno)
    except Exception as e:
        raise _located(e, path, file, "loading the reference raised")
    fn = getattr(module, func, None)
    if not callable(fn):
        raise TraceError("not_found", f"{file} defines no function '{func}'", "name the reference as FILE.py:FUNCTION",
                         file=file)
    return fn, path, file


def _located(e, path, shown, what):
    tb, line = e.__traceback__, None
    while tb is not None:
        if os.path.realpath(tb.tb_frame.f_code.co_filename) == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    return TraceError("kernel_error", f"{what} {type(e).__name__}: {e}", "fix the reference function at this line",
                      file=shown, line=line)


def call(fn, path, shown, arrays, scalars):
    """fn(**arguments it accepts); returns its result. Missing required parameters are an error."""
    params = inspect.signature(fn).parameters
    kwargs = {}
    for name, p in params.items():
        if name in arrays:
            kwargs[name] = arrays[name]
        elif name in scalars:
            kwargs[name] = scalars[name]
        elif p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            raise TraceError("invalid_argument", f"reference parameter '{name}' is not a kernel argument",
                             f"the reference takes the kernel's arguments by name: {', '.join(arrays)}",
                             file=shown, line=fn.__code__.co_firstlineno)
    try:
        with np.errstate(all="ignore"):
            return fn(**kwargs)
    except TraceError:
        raise
    except Exception as e:
        raise _located(e, path, shown, "the reference raised")


def outputs(result, names, shown):
    """The reference's result as one float64 array per kernel output name."""
    if isinstance(result, dict):
        missing = [n for n in names if n not in result]
        if missing and len(result) == len(names):
            result = list(result.values())
        elif missing:
            raise TraceError("invalid_argument", f"the reference returned no '{missing[0]}'",
                             f"return the outputs {', '.join(names)}", file=shown)
        else:
            return {n: _array(result[n], n, shown) for n in names}
    if not isinstance(result, (tuple, list)):
        result = [result]
    if len(result) != len(names):
        raise TraceError("invalid_argument", f"the reference returned {len(result)} arrays but the kernel has "
                         f"{len(names)} outputs ({', '.join(names)})", "return one array per output", file=shown)
    return {n: _array(r, n, shown) for n, r in zip(names, result)}


def _array(x, name, shown):
    try:
        a = np.array(np.asarray(x), dtype=np.float64)
    except (TypeError, ValueError):
        raise TraceError("invalid_argument", f"the reference's '{name}' is not a numeric array", file=shown)
    return a
