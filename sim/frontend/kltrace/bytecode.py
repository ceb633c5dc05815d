"""The instructions that follow a call site in its code object, for the look-ahead caches that ask what the kernel
does with a call's result (language._store_kind, ops._augmented_subscript, matmul_fused.plus_equals_follows).
Each asked dis.get_instructions for the whole code object once per call site: dis builds an Instruction, with its
line and labels, for every instruction of the kernel function, so a kernel with many call sites decoded its
function many times over. Here a code object is decoded once."""
import bisect
import dis

from .tracer import CODES

_DECODED = {}  # id(code) -> (its instructions as dis.get_instructions gives them, their offsets); see tracer.CODES


def following(code, offset):
    """The instructions of `code` after the one at `offset`, in order (a tuple)."""
    key = id(code)
    hit = _DECODED.get(key)
    if hit is None:
        CODES[key] = code
        instructions = tuple(dis.get_instructions(code))
        hit = _DECODED[key] = (instructions, [i.offset for i in instructions])
    instructions, offsets = hit
    return instructions[bisect.bisect_right(offsets, offset):]
