"""The recording state of one trace: buffers, instructions, source files, loop and SPMD context."""
import inspect
import os
import re
import sys

from . import dtypes
from .errors import TraceError, kernel_error
from .hwprofile import HW
from .tensor import ARENAS

_RESUMABLE = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR | inspect.CO_ITERABLE_COROUTINE
_ASSIGN = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*(?:[-+*/]?=)(?!=)")


class Buffer:
    """One allocation (HBM tensor or on-chip tile). `pstride` is the element count per partition.

    Tracks what the checks need: whether anything was written (`written`), a pending `nl.zeros` of a
    PSUM tile (`zeroed`, emitted lazily because matmul accumulation starts from zero anyway), the PSUM
    regions a matmul already accumulates into (`mm_keys`), and for implicit results of an operation
    (`temp`) the producing instruction so that `tile[...] = op(...)` can write `tile` directly.
    """
    __slots__ = ("name", "memory", "shape", "dtype", "role", "decl", "pstride", "written", "zeroed",
                 "mm_keys", "temp", "pinned", "dropped", "producer", "id", "kind", "rdims", "rap")

    def __init__(self, name, memory, shape, dtype, role, decl, kind="", pstride=None):
        self.name = name
        self.memory = memory
        self.shape = shape
        self.dtype = dtype
        self.role = role
        self.decl = decl
        self.kind = kind
        if pstride is None:
            pstride = 1
            for d in shape[1:]:
                pstride *= d
        self.pstride = pstride
        self.written = False
        self.zeroed = False
        self.mm_keys = None
        self.temp = False
        self.pinned = False
        self.dropped = False
        self.producer = None
        self.id = -1
        self.rdims = None   # dims of the root view, shared by views of the whole buffer
        self.rap = None     # cached (AP, elements) of the whole buffer


class Instr:
    """One recorded instruction; operands are AP tuples (buffer, part0, pcount, offset, pattern, dtype)."""
    __slots__ = ("op", "engine", "dst", "src", "elements", "nbytes", "attrs", "loc", "iter", "pid", "ranges",
                 "vals")  # vals: value mode only (numerics/), set by emit.value_operands; never in the IR

    def __init__(self, op, engine, dst, src, elements, nbytes, attrs, loc, iters, pid, ranges):
        self.op = op
        self.engine = engine
        self.dst = dst
        self.src = src
        self.elements = elements
        self.nbytes = nbytes
        self.attrs = attrs
        self.loc = loc
        self.iter = iters
        self.pid = pid
        self.ranges = ranges


# id -> code object, for caches keyed by (id(code), instruction offset): hashing a code object hashes its
# bytecode, constants and names on every lookup (a large kernel function costs ~0.2 us), an id costs nothing.
# Every code object such a key names is kept here, so its id is never reused by another object.
CODES = {}


def replicate_default():
    """Loop replication is on unless KL_TRACE_REPLICATE=0 (tests compare both ways)."""
    return os.environ.get("KL_TRACE_REPLICATE", "1") != "0"


class Tracer:
    """Collects buffers and instructions while the kernel runs (one instance per process: `T`)."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.buffers = []
        self.instrs = []
        self.files = []          # display names, index = file id
        self._file_ids = {}      # co_filename -> file id, or -1 for non-kernel files
        self.kernel_dir = None
        self.stop_code = None    # code object of the runner frame: loc walks stop there
        self.iters = []
        self.iter_tuple = ()
        self.pid = (0,)
        self.grid = (1,)
        self.lnc = 1             # logical NeuronCore degree, written to the IR's kernel.lnc when 2
        self.api_seen = set()
        self.nc_version = None   # "gen2"/"gen3"/"gen4" from --target; None: by the API generation
        self.values = False      # value mode (--numerics): instructions also keep their logical operands
        self.replicate = replicate_default()  # loop replication (replicate.py); off in value mode anyway
        self.replicator = None   # the replicate._Replicator of the loop whose first iterations run now
        self.blocks = []         # replicate.py: runs of replicated iterations, which irbin writes as blocks
        # Replication's iteration marks refer to T.buffers by position: a dropped temporary leaves the list
        # (ops.retarget) only from past the latest mark, so no mark moves. 0 in plain tracing.
        self.marked = 0
        self.arg_bufs = ()       # value mode: the HBM buffers of the kernel's tensor arguments, in spec order
        self.result = None       # value mode: what the kernel returned (its output tensors)
        self.arg_scalars = {}    # value mode: the kernel's non-tensor arguments (and defaults) by name
        self.stand_ins = set()   # top-level modules imported as stand-ins (see imports.py)
        ARENAS.clear()
        self.arenas = ARENAS     # memory -> the buffer of tiles the kernel placed itself (placement.py)
        self.diagnostics = []
        self._warned = set()
        self._names = {}
        self.shared_allocs = []  # shared_hbm buffers of instance 0, reused by later instances
        self.shared_ordinal = 0
        self.sources = {}
        self._loc_frame = None   # single-entry cache of loc(): frame, offset, line and its chain
        self._loc_lasti = -1
        self._loc_line = -1
        self._lines = {}         # (id(code), instruction offset) -> line
        self._tops = {}          # (id(code), instruction offset) -> loc of the kernel function's own frame
        self._loc_value = ()
        self._top_frame = None   # the kernel function's running frame, and its locs by instruction offset
        self._top_locs = {}

    # ---------------------------------------------------------------- source locations
    def file_id(self, filename):
        fid = self._file_ids.get(filename)
        if fid is None:
            fid = -1
            kd = self.kernel_dir
            if kd and filename.startswith(kd) and filename.endswith(".py"):
                fid = len(self.files)
                self.files.append(filename[len(kd):].lstrip("/"))
            self._file_ids[filename] = fid
        return fid

    def loc(self, frame=None):
        """Kernel-file frames from the innermost outwards, as ((file, line), ...).

        Front-end frames are skipped first. The chain of the innermost kernel frame is cached for that
        frame object and line (its callers cannot change while it runs), so the several calls one
        kernel statement makes walk the stack once; line numbers are cached per (code, instruction
        offset), which is cheaper than decoding `f_lineno`. Files are registered on the first walk.
        """
        f = frame or sys._getframe(1)
        if f is self._top_frame:  # called from the kernel function itself (nl.load's frame): no walk
            value = self._top_locs.get(f.f_lasti)
            if value is not None:
                return value
        stop = self.stop_code
        ids = self._file_ids
        while f is not None:
            code = f.f_code
            if code is stop:
                return ()
            fid = ids.get(code.co_filename)
            if fid is None:
                fid = self.file_id(code.co_filename)
            if fid >= 0:
                break
            f = f.f_back
        else:
            return ()
        lasti = f.f_lasti
        same = f is self._loc_frame
        if same and lasti == self._loc_lasti:
            return self._loc_value
        key = (id(code), lasti)  # a code object hashes its whole body: its id is cheap (see CODES)
        g = f.f_back
        if g is not None and g.f_code is stop:
            # The kernel function itself (called by the runner): the chain is one frame, the same
            # tuple object for every call from this instruction offset.
            value = self._tops.get(key)
            if value is None:
                CODES[key[0]] = code
                value = self._tops[key] = ((fid, f.f_lineno),)
            if not code.co_flags & _RESUMABLE:
                if f is not self._top_frame:
                    self._top_frame = f
                    self._top_locs = {}
                self._top_locs[lasti] = value
                # The single-entry cache too, for the next call from this offset through a front-end frame (the
                # callers' test in isa._nc_matmul); its line stays unset, so another offset on the line still
                # takes its own tuple from _tops.
                self._loc_frame = f
                self._loc_lasti = lasti
                self._loc_line = -1
                self._loc_value = value
            return value
        lines = self._lines
        line = lines.get(key)
        if line is None:
            CODES[key[0]] = code
            line = lines[key] = f.f_lineno
        if same and line == self._loc_line:
            self._loc_lasti = lasti
            return self._loc_value
        out = [(fid, line)]
        while g is not None:
            gcode = g.f_code
            if gcode is stop:
                break
            gid = ids.get(gcode.co_filename)
            if gid is None:
                gid = self.file_id(gcode.co_filename)
            if gid >= 0:
                gkey = (id(gcode), g.f_lasti)
                gline = lines.get(gkey)
                if gline is None:
                    CODES[gkey[0]] = gcode
                    gline = lines[gkey] = g.f_lineno
                out.append((gid, gline))
            g = g.f_back
        value = tuple(out)
        if not code.co_flags & _RESUMABLE:  # a generator's frame gets other callers on resumption
            self._loc_frame = f
            self._loc_lasti = lasti
            self._loc_line = line
            self._loc_value = value
        return value

    def where(self, frame=None):
        """(display file, line) of the innermost kernel frame, or (None, None)."""
        loc = self.loc(frame or sys._getframe(1))
        if not loc:
            return None, None
        return self.files[loc[0][0]], loc[0][1]

    def source_line(self, fid, line):
        lines = self.sources.get(fid)
        if lines is None:
            try:
                with open(self.kernel_dir + "/" + self.files[fid], encoding="utf-8", errors="replace") as fh:
                    lines = fh.read().splitlines()
            except OSError:
                lines = []
            self.sources[fid] = lines
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def var_name(self, loc, fallback):
        """The variable a call's result is assigned to on its source line (`x = nl.load(...)` -> x)."""
        if not loc:
            return fallback
        key = loc[0]
        name = self._names.get(key)
        if name is None:
            m = _ASSIGN.match(self.source_line(*key))
            name = m.group(1) if m else ""
            self._names[key] = name
        return name or fallback

    def warn(self, message, loc=None, once_key=None):
        if once_key is not None:
            if once_key in self._warned:
                return
            self._warned.add(once_key)
        loc = loc if loc is not None else self.loc(sys._getframe(1))
        fid, line = loc[0] if loc else (0, 0)
        self.diagnostics.append(("warning", message, fid, line))

    # ---------------------------------------------------------------- buffers
    def new_buffer(self, name, memory, shape, dtype, role, loc, kind=""):
        if memory != "hbm":
            check_onchip_shape(memory, shape, dtype)
        decl = loc[0] if loc else (0, 0)
        buf = Buffer(name, memory, shape, dtype, role, decl, kind)
        self.buffers.append(buf)
        return buf

    # ---------------------------------------------------------------- loops
    def push_loop(self):
        self.iters.append(0)
        return len(self.iters) - 1

    def set_iter(self, depth, value):
        self.iters[depth] = value
        self.iter_tuple = tuple(self.iters)

    def pop_loop(self):
        self.iters.pop()
        self.iter_tuple = tuple(self.iters)


_checked_shapes = set()


def check_onchip_shape(memory, shape, dtype):
    key = (memory, shape, dtype)
    if key in _checked_shapes:
        return
    _check_onchip_shape(memory, shape, dtype)
    _checked_shapes.add(key)


def _check_onchip_shape(memory, shape, dtype):
    if not shape:
        raise kernel_error(f"an on-chip ({memory}) tile needs at least one dimension")
    if shape[0] > HW.pmax:
        raise kernel_error(
            f"partition dimension {shape[0]} of a {memory} tile {list(shape)} exceeds {HW.pmax}",
            "the first dimension of an on-chip tile is the partition dimension (at most "
            f"nl.tile_size.pmax = {HW.pmax}): split the data into tiles of {HW.pmax} rows")
    free = 1
    for d in shape[1:]:
        free *= d
    nbytes = free * dtypes.size_of(dtype)
    if memory == "psum" and nbytes > HW.psum_partition_bytes:
        raise kernel_error(
            f"PSUM tile {list(shape)} {dtype} needs {nbytes} bytes per partition; PSUM has "
            f"{HW.psum_partition_bytes} ({HW.psum_banks} banks of {HW.psum_bank_bytes // 1024} KiB)",
            f"use smaller PSUM tiles (at most {HW.psum_fmax} float32 per bank)")
    if memory == "sbuf" and nbytes > HW.sbuf_partition_bytes:
        raise kernel_error(
            f"SBUF tile {list(shape)} {dtype} needs {nbytes} bytes per partition; a partition holds "
            f"{HW.sbuf_partition_bytes}", "tile the free dimension into smaller pieces")


T = Tracer()


def fill_location(err, frame=None):
    """Give a TraceError the innermost kernel frame as its location if it has none."""
    if err.file is None:
        err.file, err.line = T.where(frame or sys._getframe(1))
    return err


__all__ = ["T", "Buffer", "Instr", "Tracer", "TraceError", "fill_location"]
