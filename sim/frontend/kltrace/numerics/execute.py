"""The post-pass interpreter: every recorded instruction, in order, on the hardware machine (Trainium
rounding) and on the float64 shadow machine; per instruction the rounding error it added."""
import heapq

import numpy as np

from . import fmt, valops
from .machine import Machine
from ..errors import TraceError

TOP = 20


def _identity(x):
    return x


def where_of(ins, files):
    if ins.loc:
        fid, line = ins.loc[0]
        return files[fid], line
    return "", 0


def _ctx(ins, vals, rnd, exact, machine, where, memo=None):
    c = valops.Ctx()
    c.memo = {} if memo is None else memo
    c.ins, c.attrs, c.meta = ins, ins.attrs or {}, vals[2]
    c.dshapes = [tuple(cnt for _, cnt in d[2]) for d in vals[0]]
    c.rnd, c.exact, c.where = rnd, exact, where
    c.old = lambda i: machine.read(vals[0][i], where)
    return c


def _max_diff(a, b):
    with np.errstate(invalid="ignore"):
        d = np.abs(np.asarray(a) - np.asarray(b))
    fin = np.isfinite(d)
    if fin.all():
        return float(d.max()) if d.size else 0.0
    both_nan = np.isnan(a) & np.isnan(b) if np.shape(a) == np.shape(b) else False
    if np.any(~fin & ~both_nan):
        return float("inf")
    return float(d[fin].max()) if fin.any() else 0.0


def run(instrs, files, hw, shadow):
    """Execute instrs on both machines; returns the TOP instructions by added error as dicts."""
    top = []
    for index, ins in enumerate(instrs):
        file, line = where_of(ins, files)
        isa = (ins.attrs or {}).get("isa")
        where = f"nisa.{isa} (recorded as {ins.op})" if isa else ins.op  # file and line go in the error's fields
        vals = getattr(ins, "vals", None)
        handler = valops.HANDLERS.get(ins.op)
        if handler is None or vals is None:
            raise TraceError("unsupported", f"value execution does not support {where}",
                             "see docs/numerics.md for the instructions value mode executes", file=file or None,
                             line=line or None)
        try:
            srcs = [hw.read(o, where) for o in vals[1]]
            memo = {}
            results = handler(_ctx(ins, vals, fmt.fp32, False, hw, where, memo), srcs)
            exact = handler(_ctx(ins, vals, _identity, True, hw, where, memo), srcs)
            added = 0.0
            for d, r, e in zip(vals[0], results, exact):
                written = hw.write(d, r, where, ins.engine != "dma")
                e = np.asarray(e, dtype=np.float64)
                e = e.reshape(written.shape) if e.size == written.size else np.broadcast_to(e, written.shape)
                added = max(added, _max_diff(written, e))
            ssrcs = [shadow.read(o, where) for o in vals[1]]
            for d, r in zip(vals[0], handler(_ctx(ins, vals, _identity, True, shadow, where), ssrcs)):
                shadow.write(d, r, where)
        except TraceError as e:
            if e.file is None:
                e.file, e.line = file or None, line or None
            raise
        if added > 0.0:
            item = (added, -index, ins, file, line)
            if len(top) < TOP:
                heapq.heappush(top, item)
            elif item[:2] > top[0][:2]:
                heapq.heapreplace(top, item)
    return [{"index": -i, "op": ins.op, "file": f, "line": ln, "added_error": a, "output": "",
             "buffer": ins.vals[0][0][0].name} for a, i, ins, f, ln in sorted(top, key=lambda t: (-t[0], -t[1]))]


def attribute(top, instrs, outputs):
    """Set each top instruction's "output": the first kernel output its result flows into (buffer-level
    data flow, walked backwards from the end); its own buffer's name when it reaches none."""
    feeds = {id(buf): {name} for name, buf in outputs}  # buffer -> outputs its current contents reach
    order = {name: i for i, (name, _) in enumerate(outputs)}
    wanted = {t["index"]: t for t in top}
    for index in range(len(instrs) - 1, -1, -1):
        vals = getattr(instrs[index], "vals", None)
        if vals is None:
            continue
        reach = set()
        for d in vals[0]:
            reach |= feeds.get(id(d[0]), set())
        if index in wanted and reach:
            wanted[index]["output"] = min(reach, key=order.get)
        if reach:
            for s in vals[1]:
                feeds.setdefault(id(s[0]), set()).update(reach)
    for t in top:
        t["output"] = t["output"] or t["buffer"]


def machines(stochastic_seed=None):
    """The hardware machine (RNE, or seeded stochastic rounding of engine results) and the float64 shadow."""
    return Machine(exact=False, stochastic_seed=stochastic_seed), Machine(exact=True)
