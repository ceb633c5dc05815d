"""Which kernel loops may be replicated: a conservative static reading of the loop's body (replicate.py).

Replication traces a few iterations and writes the others from them, so it is only sound when nothing the
body computes can depend on the loop variable except through affine arithmetic on integers and the tile
indexing of the front end. This module accepts a `for` statement only when its body is straight-line code
built from a small set of statements and expressions, and says what the run-time checks must still prove:

- no branches, `try`, `with`, `assert`, `del`, `global`, comprehensions, lambdas, comparisons, boolean
  operators or conditional expressions (control flow could then follow the loop variable);
- inner `for` loops are allowed when their range does not depend on the loop variable and their bodies
  follow the same rules (the loop is then `nested`: its iterations hold the inner loops' records, traced
  plainly inside it, replicate.py); a value carried from one inner iteration to the next is followed by
  walking the inner body until the names that depend on the loop variable stop growing;
- arithmetic on values derived from the loop variable only `+`, `-` and `*`, and `*` never with such values
  on both sides (so every integer the body computes is affine in the loop variable: three traced
  iterations then fix it); other operators only on values that are the same in every iteration;
- attribute stores are not allowed; subscript stores and subscripts indexed by a value derived from the
  loop variable must be on names that hold front-end tensors (checked at run time: `tensor_names`);
- a name the body reads before assigning it is carried from one iteration to the next: it must stay the
  same object (checked at run time: `carried`), as `acc += nl.matmul(...)` keeps its PSUM tile.

Calls are allowed here; replicate.py makes sure only front-end code runs: when every call in the body names
its function by a name or an attribute chain (`nl.load`, `nisa.nc_matmul`) whose root the body does not
assign (`calls`), it resolves them once when the loop starts, and checks the names the body reads from outside
(`reads`) hold inert values (numbers, strings, tensors, front-end modules...); otherwise it watches the calls
with a profile hook while the first iterations run.
"""
import ast
import dis

from .bytecode import fast_layout, unpack

_FOR_ITER = dis.opmap["FOR_ITER"]
_ARITH = (ast.Add, ast.Sub, ast.Mult)
_AUG_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div)
_UNARY = (ast.USub, ast.UAdd)


class LoopShape:
    """What the run-time checks need to know about one replicable loop body."""
    __slots__ = ("target", "carried", "tensor_names", "nested", "calls", "reads")

    def __init__(self, target, carried, tensor_names, nested=False, calls=None, reads=frozenset()):
        self.target = target              # the loop variable's name
        self.carried = carried            # names read before they are assigned in the body (and assigned)
        self.tensor_names = tensor_names  # names that must hold a front-end tensor at every iteration end
        self.nested = nested              # the body holds inner `for` loops
        self.calls = calls                # the called functions as name chains (('nl', 'load'), ...), or None
        self.reads = reads                # names read from outside the body that are not call roots


class _Reject(Exception):
    pass


_trees = {}       # filename -> the module's `for` statements, or None if it cannot be read or parsed
_shapes = {}      # (code, line) -> LoopShape or None
_for_iters = {}   # code -> offsets of its FOR_ITER instructions
# (id(code), offset of the FOR_ITER) -> loop_shape's answer: a loop starts once per iteration of the loops around
# it (matmul_optimized starts 465 candidate loops), and the line number and the code object's hash cost more than
# this look-up. One offset is one `for` statement, so the answer is the one _shapes holds for its line.
_at_offset = {}
_MISSING = object()


def loop_shape(frame):
    """The LoopShape of the `for` statement `frame` is running (it asks our range for its next value), or
    None when the loop must be traced plainly."""
    code = frame.f_code
    lasti = frame.f_lasti
    at = (id(code), lasti)  # _for_iters keeps the code object alive, so its id names it
    shape = _at_offset.get(at, _MISSING)
    if shape is not _MISSING:
        return shape
    shape = _at_offset[at] = _loop_shape(frame, code, lasti)
    return shape


def _loop_shape(frame, code, lasti):
    offsets = _for_iters.get(code)
    if offsets is None:
        offsets = _for_iters[code] = for_iter_offsets(code)
    if lasti not in offsets:
        return None  # the range is consumed by something else (list(), zip(), a comprehension...)
    key = (code, frame.f_lineno)
    if key in _shapes:
        return _shapes[key]
    shape = None
    node = _find_for(code.co_filename, frame.f_lineno)
    if node is not None:
        try:
            shape = _analyse(node)
        except _Reject:
            shape = None
    _shapes[key] = shape
    return shape


def for_iter_offsets(code):
    """The offsets of the FOR_ITER instructions of `code`, as dis.get_instructions gives them. Read straight from
    co_code (bytecode.unpack): dis builds an Instruction, with its line and labels, for every instruction of the
    kernel function, and for a kernel such as matmul_optimized that cost about a twentieth of its replicated
    trace."""
    if not fast_layout():  # not the layout of CPython 3.11-3.12's dis: ask dis
        return frozenset(i.offset for i in dis.get_instructions(code) if i.opcode == _FOR_ITER)
    return frozenset(offset for offset, op, _ in unpack(code) if op == _FOR_ITER)


def _find_for(filename, line):
    fors = _trees.get(filename, False)
    if fors is False:
        try:
            with open(filename, encoding="utf-8") as fh:
                tree = ast.parse(fh.read(), filename)
            fors = [n for n in ast.walk(tree) if isinstance(n, ast.For)]  # walked once per file, not per loop
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
            fors = None
        _trees[filename] = fors
    if fors is None:
        return None
    found = [n for n in fors if n.lineno <= line <= n.iter.end_lineno]
    return found[0] if len(found) == 1 else None


def _analyse(node):
    if not isinstance(node.target, ast.Name) or node.orelse or not node.body:
        raise _Reject()
    walker = _Body(node.target.id)
    for stmt in node.body:
        walker.statement(stmt)
    carried = frozenset(n for n in walker.read_first if n in walker.assigned)
    for name in walker.tensor_names:
        # A subscripted name must be seen at an iteration's end with the value the subscript used: assigned
        # once at most, and then before it is subscripted (otherwise it is carried and stays the same).
        if walker.assign_count.get(name, 0) > 1:
            raise _Reject()
    if node.target.id in walker.assigned:
        raise _Reject()
    if walker.tensor_names & walker.inner_copied:
        raise _Reject()  # a name an inner loop binds to something other than a call result, then subscripted
    calls = walker.calls
    if calls is not None and any(c[0] in walker.assigned for c in calls):
        calls = None  # a method of something the body made: only the profile hook can tell what runs
    roots = {c[0] for c in calls} if calls is not None else set()
    reads = frozenset(n for n in walker.read_first if n not in roots and n != node.target.id)
    return LoopShape(node.target.id, carried, frozenset(walker.tensor_names), walker.nested,
                     None if calls is None else tuple(sorted(calls)), reads)


class _Body:
    """One pass over a straight-line body in execution order: reads, writes, taint by the loop variable."""

    def __init__(self, target):
        self.tainted = {target}
        self.assigned = set()
        self.assign_count = {}
        self.read_first = set()   # names read while not yet assigned in this iteration
        self.tensor_names = set()
        self.nested = False
        self.calls = set()        # name chains of the called functions; None once one is not a chain
        self.inner = 0            # depth of inner loops around the statement being read
        self.counting = True      # False on the repeated walks of an inner body (assignments counted once)
        self.inner_copied = set() # names an inner loop assigns from anything but a call: their value at the
                                  # iteration's end need not be what an earlier inner iteration subscripted

    # ------------------------------------------------------------------ statements
    def statement(self, s):
        if isinstance(s, ast.Assign):
            taint = self.expr(s.value)
            for t in s.targets:
                self.store(t, taint, s.value)
        elif isinstance(s, ast.AugAssign):
            if not isinstance(s.op, _AUG_OPS):
                raise _Reject()
            t = s.target
            if isinstance(t, ast.Name):
                self.read(t.id)
                taint = self.expr(s.value) or t.id in self.tainted
                self.store(t, taint, s.value if isinstance(s.value, ast.Call) else None)
            elif isinstance(t, ast.Subscript):
                self.expr(s.value)
                self.store(t, False)
            else:
                raise _Reject()
        elif isinstance(s, ast.For):
            self.inner_loop(s)
        elif isinstance(s, ast.Expr):
            if not isinstance(s.value, (ast.Call, ast.Constant)):
                raise _Reject()
            self.expr(s.value)
        elif not isinstance(s, ast.Pass):
            raise _Reject()

    def inner_loop(self, s):
        """An inner `for`: its range must be the same in every iteration of the loop being replicated (so
        is its trip count); its body is walked until the taint stops growing (values carried between inner
        iterations)."""
        if not isinstance(s.target, ast.Name) or s.orelse or not s.body:
            raise _Reject()
        if self.expr(s.iter):
            raise _Reject()  # the inner trip count would follow the loop variable
        self.nested = True
        self.inner += 1
        counting = self.counting
        for _ in range(8):
            before = len(self.tainted)
            self.store(s.target, False)
            for stmt in s.body:
                self.statement(stmt)
            self.counting = False
            if len(self.tainted) == before:
                break
        else:
            raise _Reject()
        self.counting = counting
        self.inner -= 1

    def store(self, t, taint, value=None):
        if isinstance(t, ast.Name):
            self.assigned.add(t.id)
            if self.counting:
                self.assign_count[t.id] = self.assign_count.get(t.id, 0) + 1
            if self.inner and not isinstance(value, ast.Call):
                self.inner_copied.add(t.id)
            if taint:
                self.tainted.add(t.id)
        elif isinstance(t, ast.Tuple):
            for e in t.elts:
                if not isinstance(e, ast.Name):
                    raise _Reject()
                self.store(e, taint, value)
        elif isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name):
            self.read(t.value.id)
            self.expr(t.slice)
            self.tensor_names.add(t.value.id)
        else:
            raise _Reject()

    def read(self, name):
        if name not in self.assigned:
            self.read_first.add(name)

    # ------------------------------------------------------------------ expressions
    def expr(self, e):
        """Walk e; returns whether its value may depend on the loop variable."""
        if isinstance(e, ast.Name):
            if not isinstance(e.ctx, ast.Load):
                raise _Reject()
            self.read(e.id)
            return e.id in self.tainted
        if isinstance(e, ast.Constant):
            return False
        if isinstance(e, ast.Attribute):
            if not isinstance(e.ctx, ast.Load):
                raise _Reject()
            return self.expr(e.value)
        if isinstance(e, ast.Call):
            if self.expr(e.func):
                raise _Reject()  # the function itself chosen by the loop variable
            chain = _chain(e.func)
            if chain is None:
                self.calls = None
            elif self.calls is not None:
                self.calls.add(chain)
            taint = False
            for a in e.args:
                if isinstance(a, ast.Starred):
                    raise _Reject()
                taint |= self.expr(a)
            for k in e.keywords:
                if k.arg is None:
                    raise _Reject()
                taint |= self.expr(k.value)
            return True if taint else False
        if isinstance(e, ast.BinOp):
            left = self.expr(e.left)
            right = self.expr(e.right)
            if not isinstance(e.op, _ARITH) and (left or right):
                raise _Reject()  # `k // 4`, `k % 2`, ...: not affine (`M // TILE` alone is the same every time)
            if left and right and isinstance(e.op, ast.Mult):
                raise _Reject()  # not affine in the loop variable
            return left or right
        if isinstance(e, ast.UnaryOp):
            if not isinstance(e.op, _UNARY):
                raise _Reject()
            return self.expr(e.operand)
        if isinstance(e, ast.Subscript):
            if not isinstance(e.ctx, ast.Load):
                raise _Reject()
            base = self.expr(e.value)
            index = self.expr(e.slice)
            if index:
                if not isinstance(e.value, ast.Name):
                    raise _Reject()  # a list or table looked up by the loop variable
                self.tensor_names.add(e.value.id)
            return base or index
        if isinstance(e, ast.Slice):
            taint = False
            for part in (e.lower, e.upper, e.step):
                if part is not None:
                    taint |= self.expr(part)
            return taint
        if isinstance(e, (ast.Tuple, ast.List)):
            if not isinstance(e.ctx, ast.Load):
                raise _Reject()
            taint = False
            for x in e.elts:
                if isinstance(x, ast.Starred):
                    raise _Reject()
                taint |= self.expr(x)
            return taint
        raise _Reject()


def _chain(e):
    """('nl', 'load') for `nl.load`, ('f',) for `f`; None for anything else."""
    names = []
    while isinstance(e, ast.Attribute):
        names.append(e.attr)
        e = e.value
    if not isinstance(e, ast.Name):
        return None
    names.append(e.id)
    return tuple(reversed(names))


def clear():
    """Forget cached sources (tests trace several kernels with the same file name in one process)."""
    _trees.clear()
    _shapes.clear()
    _at_offset.clear()


__all__ = ["LoopShape", "loop_shape", "clear"]
