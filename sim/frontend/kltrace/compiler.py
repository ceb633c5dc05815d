"""`nki.compiler` (and legacy `neuronxcc.nki.compiler`): compiler directives and direct allocation.

Directives that steer the real compiler's schedule (skip_middle_end_transformations, no_reorder,
multi_buffer, ...) change nothing in a traced program: the trace already is the program as written.
Allocators (`sbuf.mod_alloc(base_addr=...)`, `psum.alloc(func)`, ...) are memory kinds with a placement
that the tensor keeps.
"""

from .alloc import Memory, MEMORIES


class Allocator(Memory):
    """`buffer=` value of a direct allocation: a memory kind plus where the kernel asked to place it
    (the keywords of mod_alloc, or the allocation function given to .alloc); see placement.py."""
    __slots__ = ("placement", "func")

    def __init__(self, memory, placement, func=None):
        super().__init__(memory, memory)
        self.placement = placement
        self.func = func

    def __repr__(self):
        return f"ncc.{self.memory}.alloc({self.placement})"


class _Directive:
    """A decorator that may be used bare or called with options, and as a loop directive / context."""

    def __init__(self, name):
        self.__name__ = name

    def __call__(self, func=None, *args, **options):
        if callable(func) and not args and not options:
            return func
        return self

    def __enter__(self):
        return self

    def __exit__(self, *_):
        return False


class _MemoryNamespace:
    """`nki.compiler.sbuf` / `.psum`: allocator factories for one on-chip memory."""

    def __init__(self, memory):
        self._memory = memory

    def mod_alloc(self, **placement):
        return Allocator(self._memory, dict(placement))

    def alloc(self, func):
        return Allocator(self._memory, {"function": getattr(func, "__name__", "allocator")}, func)

    def auto_alloc(self):
        return MEMORIES[self._memory]

    def __repr__(self):
        return f"nki.compiler.{self._memory}"


def multi_buffer(factor=2):
    return _Directive(f"multi_buffer({factor})")


def namespace():
    ns = {name: _Directive(name) for name in ("skip_middle_end_transformations", "enable_stack_allocator",
                                              "force_auto_alloc", "allocation_scope", "no_reorder")}
    ns.update({"sbuf": _MemoryNamespace("sbuf"), "psum": _MemoryNamespace("psum"), "multi_buffer": multi_buffer,
               "Allocator": Allocator})
    return ns


__all__ = ["namespace", "Allocator"]
