"""One signature table for the classic nisa calls of both NKI generations (issue 22).

Legacy `neuronxcc.nki.isa` calls take their operands, then keyword-only options, and return the result
tile; current `nki.isa` calls take the destination first, every parameter positional-or-keyword, and
return nothing. Both wrappers of a call are generated from its one row here and call one body (isa.py)
with every parameter by name; the body gets `dst=None` from a legacy call (unless the legacy signature
has its own `dst`, as dma_copy's does).

A row is "OPERANDS | OPTIONS". Operands are positional in both generations; options are keyword-only in
the legacy form and follow the operands in the current one. `name=default` gives a default (options
default to None); `:L` marks a parameter only the legacy form has, `:C` one only the current form has. A
leading `!` on the row: the current form checks that dst is a tile. Argument names and orders follow
the NKI API reference (https://awsdocs-neuron.readthedocs-hosted.com/en/latest/nki/api/nki.isa.html and
the v2.21 legacy pages under .../en/v2.21.0.beta/general/nki/api/); both forms ignore other keywords.
"""
from collections import namedtuple

Param = namedtuple("Param", "name default generations")  # default: source text or None (required)

CLASSIC = {
    "nc_matmul": "stationary moving | is_stationary_onezero=False is_moving_onezero=False is_transpose=False "
                 "mask:L accumulate:C tile_position=() tile_size=() perf_mode",
    "nc_transpose": "data | mask:L dtype:L engine",
    "activation": "op data | bias scale=1.0 reduce_op reduce_res reduce_cmd mask:L dtype:L",
    "activation_reduce": "op data | reduce_op reduce_res bias scale=1.0 mask:L dtype:L",
    "tensor_tensor": "data1 data2 op | dtype:L mask:L engine",
    "tensor_scalar": "data op0 operand0 reverse0=False op1=None operand1=None reverse1=False | dtype:L mask:L engine",
    "tensor_reduce": "! op data axis | mask:L dtype:L negate=False keepdims=False",
    "tensor_copy": "! src | mask:L dtype:L engine",
    "iota": "! expr:L dtype=None:L pattern=None:C offset=0:C channel_multiplier=0:C | mask:L",
    "memset": "! shape:L value dtype=None:L | mask:L engine",
    "affine_select": "! pred:L on_true_tile:L on_false_value:L pattern=None:C channel_multiplier=0:C "
                     "on_true_tile=None:C on_false_value=0:C cmp_op=None:C offset=0:C | mask:L dtype:L",
    "dma_copy": "dst=None:L src=None:L src:C | mask:L dge_mode:L",
    "bn_stats": "data | mask:L dtype:L",
    "bn_aggr": "data | mask:L dtype:L",
    "reciprocal": "data | dtype:L mask:L",
    "tensor_tensor_scan": "data0 data1 initial op0 op1 reverse0=False reverse1=False | dtype:L mask:L",
}

LEGACY, CURRENT = "L", "C"


def _params(words, option):
    out = []
    for word in words.split():
        spec, _, gens = word.partition(":")
        name, eq, default = spec.partition("=")
        out.append(Param(name, default if eq else ("None" if option else None), gens or LEGACY + CURRENT))
    return out


def parse(row):
    """(checks dst, operands, options) of one table row."""
    row = row.strip()
    check = row.startswith("!")
    operands, _, options = row.lstrip("! ").partition("|")
    return check, _params(operands, False), _params(options, True)


def signature(row, generation):
    """The parameter list of one generation as source text, e.g. `data1, data2, op, *, dtype=None`."""
    _, operands, options = parse(row)
    head = ["dst"] if generation == CURRENT else []
    ops = [p for p in operands if generation in p.generations]
    opts = [p for p in options if generation in p.generations]
    text = lambda p: p.name if p.default is None else f"{p.name}={p.default}"  # noqa: E731
    parts = head + [text(p) for p in ops]
    if opts:
        parts += (["*"] if generation == LEGACY else []) + [text(p) for p in opts]
    return ", ".join(parts + ["**_"])


def wrapper_source(name, row, generation):
    """The source of one generated wrapper: it binds the generation's signature and calls `_body`."""
    check, operands, options = parse(row)
    names = [p.name for p in operands + options if generation in p.generations]
    names = list(dict.fromkeys(names))
    dst = "dst" if generation == CURRENT or "dst" in names else "None"
    args = ", ".join([dst] + [f"{n}={n}" for n in names if n != "dst"])
    lines = [f"def {name}({signature(row, generation)}):"]
    if generation == CURRENT and check:
        lines.append(f"    _check_dst(dst, 'nisa.{name}')")
    lines.append(f"    {'return ' if generation == LEGACY else ''}_body({args})")
    return "\n".join(lines) + "\n"


def wrappers(generation, bodies, check_dst, filename):
    """{call: wrapper} of one generation over `bodies` ({call: body}); `filename` names the generated code
    (a front-end file, so the tracer's source locations skip its frames)."""
    out = {}
    for name, row in CLASSIC.items():
        namespace = {"_body": bodies[name], "_check_dst": check_dst}
        exec(compile(wrapper_source(name, row, generation), filename, "exec"), namespace)
        out[name] = namespace[name]
        out[name].__qualname__ = name
    return out
