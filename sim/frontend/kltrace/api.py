"""Populates the shim modules (neuronxcc.nki.*, nki.*) and turns unknown attributes into clear errors."""
import difflib
import sys

from . import accel, isa, language, compiler, collectives, operators
from .errors import unsupported
from .tracer import T, fill_location
from .views import Tensor

# The kernel API is ready once tensors have their recording methods (`a + b`, `t[k] = v`): the value
# layer (tensor.py, views.py) does not know the recorder, the operator layer binds them here.
operators.attach(Tensor)
# The plain trace's most frequent calls in C when kltrace._klaccel was built (accel.py).
accel.install()


class Kernel:
    """What `@nki.jit` (and baremetal/trace/benchmark/profile) returns: the function plus a registry entry."""

    registry = []

    def __init__(self, func, options):
        while isinstance(func, Kernel):  # nki.jit applied twice (decorator and call site)
            func = func.func
        self.func = func
        self.options = options
        self.__name__ = getattr(func, "__name__", "kernel")
        self.__wrapped__ = func
        self.__doc__ = getattr(func, "__doc__", None)
        Kernel.registry.append(self)

    def __call__(self, *args, **kwargs):
        return self.func(*args, **kwargs)

    def __getitem__(self, grid):
        # The launch grid comes from task.json / --grid; a nested launch runs this instance once.
        return self


def _decorator(kind):
    def deco(func=None, *args, **options):
        if func is None or not callable(func):
            return lambda f: Kernel(f, options)
        return Kernel(func, options)
    deco.__name__ = kind
    return deco


def _not_while_tracing(name):
    def f(*_, **__):
        raise unsupported(f"nki.{name} inside a traced kernel file",
                          "KernelLens runs the kernel itself; keep test drivers under `if __name__ == '__main__':`")
    f.__name__ = name
    return f


class _TypeStub:
    """nki.typing.tensor[...] and friends, usable in annotations only."""

    def __getitem__(self, _):
        return self

    def __call__(self, *_, **__):
        return self


def top_namespace(generation):
    ns = {k: _decorator(k) for k in ("jit", "baremetal", "trace", "benchmark", "profile")}
    ns.update({k: _not_while_tracing(k) for k in ("simulate_kernel", "simulate")})
    ns.update({"dtype": str, "tensor": Tensor, "Kernel": Kernel})
    return ns


def typing_namespace(generation):
    return {"tensor": _TypeStub(), "mutable_tensor": _TypeStub(), "scalar": _TypeStub()}


def _constants_namespace(generation):
    """`nki.isa.constants`: the ISA's configuration enums."""
    return {k: v for k, v in isa.namespace(generation).items() if k in isa.ENUM_NAMES}


# Shim module kind -> (namespace for an API generation, prefix used in messages). One table for every
# shim module of both generations (sim/frontend/shims/...).
KINDS = {
    "top": (top_namespace, "nki"),
    "language": (language.namespace, "nl"),
    "isa": (isa.namespace, "nisa"),
    "constants": (_constants_namespace, "nisa.constants"),
    "typing": (typing_namespace, "nt"),
    "compiler": (lambda generation: compiler.namespace(), "ncc"),
    "collectives": (lambda generation: collectives.namespace(), "ncc"),
    "lnc": (lambda generation: collectives.lnc_namespace(), "nki.lnc"),
}
_SUBMODULES = ("language", "isa", "typing", "nki", "compiler", "collectives", "lnc", "constants")


def install(module_name, kind, generation):
    """Fill module `module_name` with the `kind` namespace of API `generation` ('legacy' or 'nki')."""
    mod = sys.modules[module_name]
    T.api_seen.add(generation)
    make, prefix = KINDS[kind]
    ns = make(generation)
    mod.__dict__.update(ns)
    public = sorted(n for n in ns if not n.startswith("_"))

    def __getattr__(name):
        if name.startswith("__") or name in _SUBMODULES:
            raise AttributeError(name)  # lets the import system load submodules
        file, line = T.where(sys._getframe(1))
        close = difflib.get_close_matches(name, public, n=4, cutoff=0.5)
        suggestion = ", ".join(f"{prefix}.{c}" for c in (close or public[:8]))
        err = unsupported(f"unsupported NKI call {prefix}.{name} at {file}:{line}; supported instead: {suggestion}",
                          f"{prefix} provides: " + ", ".join(public))
        err.file, err.line = file, line
        raise err

    mod.__getattr__ = __getattr__
    mod.__all__ = public
    return fill_location
