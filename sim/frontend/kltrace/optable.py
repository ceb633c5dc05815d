"""The one op table: `ops.def` beside this module, shared with the simulator.

The C++ side includes the same file as X-macros (sim/ir/IrTypes.h, IrTypes.cpp, sim/engine/OpCostTable.cpp),
so an op, its IR name, default engine and cost formula are written once. The file lives here, not under
sim/ir, because the sandbox that runs the front end mounts only sim/frontend (and packaging installs it).
This module reads its `KL_OP(...)` rows at import: identifiers and C string literals, nothing else.
"""
import os
import re
from collections import namedtuple

DEF_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ops.def")

# The KL_OP arguments, in order (the comment at the top of ops.def says what each is).
OpRow = namedtuple("OpRow", ("enum", "name", "engine", "formula", "evidence", "source", "doc_cycles",
                             "doc_parameters", "doc_source", "doc_status"))

_TOKEN = re.compile(r'\s+|//[^\n]*|^#[^\n]*|"((?:[^"\\\n]|\\.)*)"|([A-Za-z_]\w*)|([(),])', re.M)


def _tokens(text):
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            line = text.count("\n", 0, pos) + 1
            raise ValueError(f"{DEF_PATH}:{line}: unexpected text {text[pos:pos + 20]!r}")
        pos = m.end()
        if m.group(1) is not None:
            yield "str", re.sub(r"\\(.)", r"\1", m.group(1))
        elif m.group(2) is not None:
            yield "id", m.group(2)
        elif m.group(3) is not None:
            yield "punct", m.group(3)


def parse(text):
    """The rows of a .def text, in order; adjacent string literals are joined as in C."""
    rows, toks = [], list(_tokens(text))
    i = 0
    while i < len(toks):
        if toks[i] == ("id", "KL_OP") and i + 1 < len(toks) and toks[i + 1] == ("punct", "("):
            args, cur, i = [], None, i + 2
            while toks[i] != ("punct", ")"):
                kind, value = toks[i]
                if toks[i] == ("punct", ","):
                    args.append(cur)
                    cur = None
                elif kind == "str":
                    cur = (cur or "") + value
                else:
                    cur = value
                i += 1
            args.append(cur)
            if len(args) != len(OpRow._fields):
                raise ValueError(f"{DEF_PATH}: KL_OP({args[0]}, ...) has {len(args)} fields, "
                                 f"expected {len(OpRow._fields)}")
            rows.append(OpRow(*args))
        i += 1
    return tuple(rows)


def _load():
    with open(DEF_PATH, encoding="utf-8") as f:
        return parse(f.read())


ROWS = _load()
# IR op name -> row; the engine names are the IR's (`Engine` Tensor -> "tensor").
OPS = {r.name: r for r in ROWS}
DEFAULT_ENGINE = {r.name: r.engine.lower() for r in ROWS}
