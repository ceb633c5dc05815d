"""The instructions that follow a call site in its code object, for the look-ahead caches that ask what the kernel
does with a call's result (language._store_kind, ops._augmented_subscript, matmul_fused.plus_equals_follows).
A code object is decoded once. Not by dis.get_instructions: it builds an Instruction, with its line, positions and
labels, for every instruction of the kernel function (about 2-3 ms for matmul_optimized's, a few percent of its
replicated trace); `unpack` reads co_code as dis does, and `following` keeps only the fields its callers read."""
import bisect
import dis

from .tracer import CODES

_DECODED = {}  # id(code) -> (its instructions (Ins), their offsets); see tracer.CODES
# CPython 3.11-3.12's dis keeps, per opcode, how many inline cache entries follow it; another layout asks dis.
_CACHES = getattr(dis, "_inline_cache_entries", None)
_NB_OPS = getattr(dis, "_nb_ops", None)
_LOAD_CONST = dis.opmap["LOAD_CONST"]
_BINARY_OP = dis.opmap.get("BINARY_OP", -1)
_EXTENDED_ARG = dis.EXTENDED_ARG
_OPNAME = dis.opname


class Ins:
    """What the look-ahead callers read of an instruction, as dis.get_instructions gives it: opname and offset;
    argval of a LOAD_CONST and argrepr of a BINARY_OP (None and "" for every other instruction)."""
    __slots__ = ("opname", "offset", "argval", "argrepr")

    def __init__(self, opname, offset, argval=None, argrepr=""):
        self.opname = opname
        self.offset = offset
        self.argval = argval
        self.argrepr = argrepr


def fast_layout():
    """Whether unpack can read co_code itself (the inline cache layout of CPython 3.11-3.12)."""
    return type(_CACHES) is list and type(_NB_OPS) is list


def unpack(code):
    """(offset, opcode, oparg or None) of every instruction of `code`, EXTENDED_ARG included, as dis's
    _unpack_opargs gives them (co_code is unspecialised in 3.11+; the inline cache entries are skipped)."""
    co = code.co_code
    out = []
    i = 0
    n = len(co)
    ext = 0
    have_argument = dis.HAVE_ARGUMENT
    while i < n:
        op = co[i]
        if op >= have_argument:
            arg = co[i + 1] | ext
            ext = arg << 8 if op == _EXTENDED_ARG else 0
            if ext >= 1 << 31:  # dis keeps opargs signed
                ext -= 1 << 32
        else:
            arg = None
            ext = 0
        out.append((i, op, arg))
        i += 2 + 2 * _CACHES[op]
    return out


def _decode(code):
    if not fast_layout():
        return tuple(Ins(i.opname, i.offset, i.argval if i.opname == "LOAD_CONST" else None,
                         i.argrepr if i.opname == "BINARY_OP" else "") for i in dis.get_instructions(code))
    consts = code.co_consts
    out = []
    for offset, op, arg in unpack(code):
        if op == _LOAD_CONST:
            out.append(Ins("LOAD_CONST", offset, consts[arg]))
        elif op == _BINARY_OP:
            out.append(Ins("BINARY_OP", offset, None, _NB_OPS[arg][1]))
        else:
            out.append(Ins(_OPNAME[op], offset))
    return tuple(out)


def following(code, offset):
    """The instructions of `code` after the one at `offset`, in order (a tuple of Ins)."""
    key = id(code)
    hit = _DECODED.get(key)
    if hit is None:
        CODES[key] = code
        instructions = _decode(code)
        hit = _DECODED[key] = (instructions, [i.offset for i in instructions])
    instructions, offsets = hit
    return instructions[bisect.bisect_right(offsets, offset):]
