"""How a kernel's imports are resolved while tracing: its own package, NKI shims, and stand-ins.

- A kernel file inside a Python package (folders with `__init__.py`) is imported as a member of that
  package, so relative imports (`from ..utils import x`) and absolute imports of sibling modules work.
  Every module of the package is compiled from its source (never from a `.pyc` that could differ from
  what the reviewer reads) and gets the traced `range`, as the kernel file itself does.
- A module that cannot be found (torch, torch_xla, jax, scipy, tqdm, ...) becomes a stand-in: importing
  it and naming its attributes works, using it (calling, iterating, arithmetic, truth) fails with a
  message naming the module and the kernel line. The sandbox stays closed: nothing from site packages is
  imported for real.
"""
import importlib.machinery  # importlib.abc is not imported: it costs more than the rest of start-up
import os
import sys
import types

from . import numpy_dtypes
from .errors import TraceError
from .loops import traced_range
from .tracer import T


def find_package_root(kernel_file, override=None):
    """The top package folder of a kernel file (walking up `__init__.py` files), or None for a script."""
    if override:
        root = os.path.realpath(override)
        if not os.path.isdir(root):
            raise TraceError("not_found", f"--package-root {override} is not a folder",
                             "give the folder of the kernel's top package (the one holding its __init__.py)")
        if not os.path.realpath(kernel_file).startswith(root + os.sep):
            raise TraceError("invalid_argument", f"the kernel file is not inside --package-root {override}",
                             "give a folder that contains the kernel file")
        return root
    folder = os.path.dirname(os.path.realpath(kernel_file))
    root = None
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        root = folder
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return root


def module_name_in_package(kernel_file, package_root):
    """`pkg.sub.mod` for package_root/sub/mod.py (package_root's own name is the top package)."""
    rel = os.path.relpath(os.path.realpath(kernel_file), os.path.dirname(package_root))
    parts = os.path.splitext(rel)[0].split(os.sep)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


class _SourceOnlyLoader(importlib.machinery.SourceFileLoader):
    """Loads a package module from its .py source with the traced `range` in its globals."""

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        return compile(self.get_data(path), path, "exec", dont_inherit=True)

    def exec_module(self, module):
        module.__dict__["range"] = traced_range
        super().exec_module(module)


class PackageFinder:
    """Finds the modules of the kernel's own package (and any module under the kernel's folder)."""

    def __init__(self, top_name, search_dir):
        self.top_name = top_name
        self.search_dir = search_dir

    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".", 1)[0] != self.top_name:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path or [self.search_dir])
        if spec is None or not isinstance(spec.loader, importlib.machinery.SourceFileLoader):
            return spec
        spec.loader = _SourceOnlyLoader(fullname, spec.origin)
        return spec


class SystemNumpyFinder:
    """Finds NumPy, and only NumPy, in the system's package folder (Debian's python3-numpy).

    The front end runs with -S (no site packages); kernels use NumPy for constants and dtypes
    (np.finfo, np.float32), so this one package is let in, nothing else from that folder.
    """
    FOLDERS = ("/usr/lib/python3/dist-packages",)

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "numpy":
            return None
        for folder in self.FOLDERS:
            if os.path.isfile(os.path.join(folder, "numpy", "__init__.py")):
                spec = importlib.machinery.PathFinder.find_spec(fullname, [folder])
                if spec is not None and spec.loader is not None:
                    spec.loader = _NumpyLoader(spec.loader)
                return spec
        return None


class _NumpyLoader:
    """Runs NumPy's own loader, then teaches np.dtype / np.finfo the ML dtypes (numpy_dtypes.py)."""

    def __init__(self, loader):
        self.loader = loader

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        self.loader.exec_module(module)
        numpy_dtypes.patch(module)


# ------------------------------------------------------------------------------------------ stand-ins
def _refuse(path, action):
    file, line = T.where(sys._getframe(2))
    top = path.split(".", 1)[0]
    err = TraceError("unsupported",
                     f"the kernel uses {path} ({action}), but '{top}' is not available while tracing",
                     f"KernelLens traces kernels without framework packages: '{top}' was imported as a stand-in "
                     "that only fails when used; keep framework code out of the kernel (e.g. under "
                     "`if __name__ == '__main__':`)", file=file, line=line)
    return err


class StandIn:
    """An attribute of a stand-in module: may be named, passed around and used in annotations only."""
    __slots__ = ("_kl_path",)

    def __init__(self, path):
        object.__setattr__(self, "_kl_path", path)

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return StandIn(f"{self._kl_path}.{name}")

    def __setattr__(self, name, value):
        raise _refuse(self._kl_path, f"setting .{name}")

    def __call__(self, *_, **__):
        raise _refuse(self._kl_path, "called")

    def __getitem__(self, _):
        return self  # typing use such as torch.Tensor[...] in an annotation

    def __iter__(self):
        raise _refuse(self._kl_path, "iterated")

    def __bool__(self):
        raise _refuse(self._kl_path, "used as a condition")

    def __repr__(self):
        return f"<stand-in {self._kl_path}>"

    def __mro_entries__(self, bases):
        raise _refuse(self._kl_path, "subclassed")


def _binary_refusal(name):
    def refuse(self, *_):
        raise _refuse(self._kl_path, f"operator {name}")
    return refuse


for _op in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "lt", "le", "gt",
            "ge", "radd", "rsub", "rmul", "rtruediv", "neg", "len", "int", "float", "index"):
    setattr(StandIn, f"__{_op}__", _binary_refusal(_op))


def _circulant(c):
    """scipy.linalg.circulant(c): the n x n matrix whose column j is c rotated down by j (host-side constants)."""
    import numpy  # only for a kernel that calls it (start-up)
    c = numpy.asarray(c).ravel()
    n = c.shape[0]
    return c[(numpy.arange(n)[:, None] - numpy.arange(n)[None, :]) % n]


# Members of stand-in modules that kernels call while tracing to build constants on the host, computed
# here with NumPy; every other member stays a stand-in.
STAND_IN_MEMBERS = {"scipy.linalg": {"circulant": _circulant}}


class StandInModule(types.ModuleType):
    """A module that could not be imported; see StandIn."""

    def __init__(self, name):
        super().__init__(name)
        self.__path__ = []  # a package, so `import torch_xla.core.xla_model` finds submodules here too
        self.__file__ = None

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        member = STAND_IN_MEMBERS.get(self.__name__, {}).get(name)
        return member if member is not None else StandIn(f"{self.__name__}.{name}")


class _StandInLoader:
    def create_module(self, spec):
        return StandInModule(spec.name)

    def exec_module(self, module):
        T.stand_ins.add(module.__name__.split(".", 1)[0])


# Framework and tooling packages that kernel files import for their test drivers, references or type
# names, but that a kernel never needs while it is traced. Only these become stand-ins: an unknown
# module stays a real ImportError, because packages probe for optional modules (find_spec, try/import)
# and a stand-in would answer "present" to every probe.
STAND_IN_PACKAGES = frozenset((
    "torch", "torch_xla", "torch_neuronx", "torchvision", "jax", "jaxlib", "flax", "scipy", "tqdm", "ml_dtypes",
    "neuron_dtypes", "neuronxcc", "libneuronxla", "neuronx_distributed", "transformers", "safetensors", "einops",
    "pytest", "matplotlib", "pandas", "tensorflow", "triton", "cupy", "numba", "IPython", "boto3", "loguru",
    "absl", "rich", "colorama", "yaml", "wandb", "psutil"))


class StandInFinder:
    """Last on sys.meta_path: an import of a STAND_IN_PACKAGES module that nothing else found becomes a
    stand-in module (`neuronxcc.nki` itself is a real shim and is found before this finder)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".", 1)[0] not in STAND_IN_PACKAGES:
            return None
        return importlib.machinery.ModuleSpec(fullname, _StandInLoader(), is_package=True)


def install(kernel_file, package_root_override=None):
    """Set up sys.path and the finders for one kernel file; returns (module name, package root or None)."""
    root = find_package_root(kernel_file, package_root_override)
    if root is None:
        sys.path.insert(1, os.path.dirname(os.path.realpath(kernel_file)))
        sys.meta_path.append(StandInFinder())
        return None, None
    top = os.path.basename(root)
    parent = os.path.dirname(root)
    sys.path.insert(1, parent)
    sys.meta_path.insert(0, PackageFinder(top, parent))
    sys.meta_path.append(StandInFinder())
    return module_name_in_package(kernel_file, root), root
