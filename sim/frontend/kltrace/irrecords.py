"""The binary IR's fixed-size records (docs/kernel-ir.md), in one module that both the record-by-record
writer (irbin.py) and the block writer (irblock.py) read, so neither imports the other for them."""
import struct
import sys

MAGIC = b"KLIRBIN\0"
FORMAT_VERSION = 1
NONE = 0xFFFFFFFF

_HEADER = struct.Struct("<8sIII4x")          # magic, format version, IR version, section count
_SECTION = struct.Struct("<4sIQQ")           # tag, record size (0: blob), record count, payload bytes
_BUFFER = struct.Struct("<IIIIIIBBB5x")      # name, dtype, shape begin, dtype bytes, decl file, decl line,
                                             # memory, role, dims
_OPERAND = struct.Struct("<qIIIHHBB6x")      # offset, buffer, pattern begin, dtype, part start, part count,
                                             # pattern dims, has part
_INSTR = struct.Struct("<qqIIIIIIIBBBBB3x")  # elements, bytes, id, op, engine, attrs, operand list begin,
                                             # loc begin, ints begin, dsts, srcs, locs, iters, pids
_MEMORY = {"hbm": 0, "sbuf": 1, "psum": 2}
_ROLE = {"input": 0, "output": 1, "tile": 2, "scratch": 3}


def little_endian(words):
    """The bytes of an array.array of words in the file's byte order, as struct.pack("<...") gives them, on any
    machine (the block writers build whole sections and columns as arrays). A byte view of the array, not a copy:
    irbin.render joins it into the file, and each copy of a megabyte-sized column costs its page faults."""
    if sys.byteorder != "little":
        words.byteswap()
    return memoryview(words).cast("B")
