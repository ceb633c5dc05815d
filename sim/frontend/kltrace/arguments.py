"""A kernel's arguments: tensors (--arg, by parameter name or in order) and values (--scalar TEXT).

A value is written as Python source: a literal (`3`, `-1.5`, `True`, `None`, `'causal'`, `(3, 4)`,
`[1, 2]`, `{'a': 1}`), a member of an enum or any name defined in the kernel's module or package
(`NormType.RMS_NORM`, `nkilib.core.utils.common_types.NormType.RMS_NORM`), or a call of a class or
function from there with such arguments (`TileConfig(p=128, f=512)`). A bare word that names nothing
(`--scalar mode=fast`) is the string itself. task.json values that are not strings are used as they are.
Values are resolved after the kernel's module is loaded, inside the sandbox.
"""
import ast
import difflib
import enum
import importlib
import inspect

from .emit import root_dims
from .errors import TraceError
from .tracer import T
from .views import Tensor


def _fail(param, message, hint=""):
    return TraceError("invalid_argument", f"--scalar {param}: {message}", hint)


class _Resolver:
    """Evaluates the small expression language of a --scalar value against a module's globals."""

    def __init__(self, param, namespace):
        self.param = param
        self.namespace = namespace

    def value(self, node):
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise _fail(self.param, f"'{ast.unparse(node)}' is not a literal, a name or a call",
                        "write a Python literal such as 3, (3, 4) or 'text', or an enum member such as Kind.A")
        return method(node)

    def _Constant(self, node):
        return node.value

    def _Tuple(self, node):
        return tuple(self.value(e) for e in node.elts)

    def _List(self, node):
        return [self.value(e) for e in node.elts]

    def _Set(self, node):
        return {self.value(e) for e in node.elts}

    def _Dict(self, node):
        return {self.value(k): self.value(v) for k, v in zip(node.keys, node.values)}

    def _UnaryOp(self, node):
        v = self.value(node.operand)
        if isinstance(node.op, ast.USub):
            return -v
        if isinstance(node.op, ast.UAdd):
            return +v
        raise _fail(self.param, f"operator in '{ast.unparse(node)}' is not allowed")

    def _BinOp(self, node):
        ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
               ast.FloorDiv: lambda a, b: a // b, ast.Div: lambda a, b: a / b, ast.Pow: lambda a, b: a ** b}
        fn = ops.get(type(node.op))
        if fn is None:
            raise _fail(self.param, f"operator in '{ast.unparse(node)}' is not allowed")
        return fn(self.value(node.left), self.value(node.right))

    def _Name(self, node):
        if node.id in self.namespace:
            return self.namespace[node.id]
        try:
            return importlib.import_module(node.id)
        except ImportError:
            pass
        close = difflib.get_close_matches(node.id, [n for n in self.namespace if not n.startswith("_")], n=3)
        raise _fail(self.param, f"'{node.id}' is not defined in the kernel's module",
                    f"did you mean {', '.join(close)}?" if close else "import it in the kernel file or write a literal")

    def _Attribute(self, node):
        base = self._dotted_module(node)
        if base is not None:
            return base
        owner = self.value(node.value)
        if hasattr(owner, node.attr):
            return getattr(owner, node.attr)
        members = _members(owner)
        close = difflib.get_close_matches(node.attr, members, n=3)
        hint = f"did you mean {', '.join(close)}?" if close else ("members: " + ", ".join(members[:20]))
        raise _fail(self.param, f"{ast.unparse(node.value)} has no member '{node.attr}'", hint)

    def _dotted_module(self, node):
        """`pkg.mod.Name` when `pkg` is not a name of the kernel's module: import the longest module prefix."""
        parts = []
        n = node
        while isinstance(n, ast.Attribute):
            parts.append(n.attr)
            n = n.value
        if not isinstance(n, ast.Name) or n.id in self.namespace:
            return None
        parts.append(n.id)
        parts.reverse()
        for cut in range(len(parts) - 1, 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for attr in parts[cut:]:
                if not hasattr(obj, attr):
                    return None
                obj = getattr(obj, attr)
            return obj
        return None

    def _Call(self, node):
        fn = self.value(node.func)
        args = [self.value(a) for a in node.args]
        kwargs = {k.arg: self.value(k.value) for k in node.keywords}
        return fn(*args, **kwargs)


def _members(owner):
    if isinstance(owner, type) and issubclass(owner, enum.Enum):
        return [m.name for m in owner]
    return [n for n in dir(owner) if not n.startswith("_")]


def resolve_value(param, value, namespace):
    """The Python value of a --scalar / task.json value for parameter `param`."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        pass
    try:
        node = ast.parse(text, mode="eval").body
    except SyntaxError:
        return value  # free text such as `fast mode`: the string itself
    if isinstance(node, ast.Name) and node.id not in namespace:
        return value  # a bare word that names nothing: the string itself (`--scalar mode=fast`)
    return _Resolver(param, namespace).value(node)


def _wants_tensor(param):
    text = str(param.annotation) if param.annotation is not inspect.Parameter.empty else ""
    return any(k in text.lower() for k in ("ndarray", "tensor", "tile"))


def _describe_missing(func, missing):
    sig = inspect.signature(func)
    parts = []
    for name in missing:
        p = sig.parameters[name]
        parts.append(f"'{name}' (a tensor: --arg {name}=SHAPE:DTYPE)" if _wants_tensor(p)
                     else f"'{name}' (--arg {name}=SHAPE:DTYPE for a tensor, --scalar {name}=VALUE otherwise)")
    return "missing " + ", ".join(parts)


def bind(func, spec, namespace, decl):
    """HBM tensors for spec.args and resolved values for spec.scalars, checked against func's signature.
    Returns (positional, keyword) arguments for the call."""
    sig = inspect.signature(func)
    params = sig.parameters
    tensors = []
    for name, shape, dtype in spec.args:
        buf = T.new_buffer(name, "hbm", tuple(shape), dtype, "input", decl)
        buf.written = True
        tensors.append((name, Tensor(buf, 0, root_dims(buf.shape), dtype, root=True)))
    for name in spec.scalars:
        if name not in params and not any(p.kind == p.VAR_KEYWORD for p in params.values()):
            close = difflib.get_close_matches(name, list(params), n=3)
            raise TraceError("invalid_argument", f"{func.__name__} has no parameter '{name}'",
                             f"did you mean {', '.join(close)}?" if close else "parameters: " + ", ".join(params))
    values = {k: resolve_value(k, v, namespace) for k, v in spec.scalars.items()}
    if T.values:  # value mode: what the reference function is called with (numerics/run.py)
        T.arg_bufs = tuple(t.buf for _, t in tensors)
        T.arg_scalars = {n: p.default for n, p in params.items() if p.default is not p.empty}
        T.arg_scalars.update(values)
    by_name = bool(tensors) and all(n in params for n, _ in tensors)
    positional = [] if by_name else [t for _, t in tensors]
    keywords = dict(tensors) if by_name else {}
    for k, v in values.items():
        if k in keywords:
            raise TraceError("invalid_argument", f"'{k}' is given both as a tensor (--arg) and a value (--scalar)")
        keywords[k] = v
    try:
        sig.bind(*positional, **keywords)
    except TypeError as e:
        bound = set(list(params)[:len(positional)]) | set(keywords)
        missing = [n for n, p in params.items() if p.default is p.empty and n not in bound
                   and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY, p.POSITIONAL_ONLY)]
        detail = _describe_missing(func, missing) if missing else str(e)
        raise TraceError("invalid_argument", f"arguments do not match {func.__name__}({', '.join(params)}): {detail}",
                         "give tensors with --arg NAME=SHAPE:DTYPE and other values with --scalar NAME=VALUE")
    return positional, keywords


def describe_kernels(kernels, real_file):
    """--list-kernels: each kernel's name, location and parameters (defaults as source text)."""
    out = []
    for k in kernels:
        func = k.func
        code = getattr(func, "__code__", None)
        params = []
        for name, p in inspect.signature(func).parameters.items():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            has_default = p.default is not p.empty
            params.append({"name": name, "has_default": has_default,
                           "default": repr(p.default) if has_default else None,
                           "tensor": _wants_tensor(p)})
        fid = T.file_id(code.co_filename) if code else -1
        out.append({"name": k.__name__, "file": T.files[fid] if fid >= 0 else real_file,
                    "line": code.co_firstlineno if code else 0, "params": params})
    return out
