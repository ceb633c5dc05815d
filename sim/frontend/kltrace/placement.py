"""Direct allocation: tiles the kernel placed itself (`ncc.sbuf.mod_alloc`, `ncc.sbuf.alloc(func)`,
`ncc.psum.mod_alloc`, `nl.ndarray(..., address=(partition, byte))`).

Such tiles are views of one per-memory *arena* buffer whose flat space is the memory's address space:
partition p, byte b is element `p * ARENA_PSTRIDE + b` of a uint8 buffer. Two tiles placed at
overlapping addresses therefore overlap in the IR, and the simulator orders their accesses as the
hardware must (a tile reusing another's bytes waits for that tile's readers: the point of modulo
multi-buffering); SBUF/PSUM occupancy counts the arena, the memory the kernel reserved. The block
dimensions of a placed tensor (those before `nl.par_dim`) are placed per block by the allocation
function, so `t[i]` of a tensor with more blocks than physical tiles lands on `(i mod n)`.
"""
from . import dtypes
from .emit import root_dims
from .errors import kernel_error, unsupported
from .hwprofile import HW
from .tracer import T, Buffer
from .views import Tensor

ARENA_PSTRIDE = 1 << 22  # a partition's address space in the arena's flat index (bytes; > any SBUF partition)


def arena(memory, loc):
    """The arena buffer of `memory` ("sbuf" or "psum"), created on first use."""
    buf = T.arenas.get(memory)
    if buf is None:
        buf = Buffer(f"{memory} (placed by the kernel)", memory, (HW.pmax, 1), "uint8", "tile", loc[0] if loc else (0, 0),
                     "", ARENA_PSTRIDE)
        T.buffers.append(buf)
        T.arenas[memory] = buf
    return buf


def _linear(indices, shape):
    n = 0
    for i, s in zip(indices, shape):
        n = n * s + i
    return n


def _modulo(indices, tiles):
    tiles = tuple(tiles) or (1,) * len(indices)
    tiles = tiles + (1,) * (len(indices) - len(tiles))
    return _linear([i % t for i, t in zip(indices, tiles)], tiles)


def block_address(placement, func, memory, idx, pdim, fbytes):
    """(first partition, byte address) of block `idx` (a tuple; () without block dims)."""
    if func is not None:
        # Called with keywords, as NKI calls it (kernels bind other parameters with functools.partial).
        got = func(idx=tuple(idx), pdim_size=pdim, fdim_size=fbytes)
        if memory == "psum" and isinstance(got, tuple) and len(got) == 3:  # (bank, start partition, byte)
            return int(got[1]), int(got[0]) * HW.psum_bank_bytes + int(got[2])
        if not (isinstance(got, tuple) and len(got) == 2):
            raise kernel_error(f"the allocation function {getattr(func, '__name__', func)} returned {got!r}",
                               "return (start_partition, byte_address) for SBUF, (bank, start_partition, "
                               "byte_address) for PSUM")
        return int(got[0]), int(got[1])
    if "address" in placement:
        part, addr = placement["address"]
        return int(part), int(addr)
    if memory == "psum":
        bank = placement.get("base_bank", 0) + _modulo(idx, placement.get("num_bank_tiles", ()))
        return placement.get("base_partition", 0), bank * HW.psum_bank_bytes + placement.get("base_addr", 0)
    free = _modulo(idx, placement.get("num_free_tiles", ()))
    part_tile = _modulo(idx, placement.get("num_par_tiles", ()))
    return (placement.get("base_partition", 0) + part_tile * pdim,
            placement.get("base_addr", 0) + free * fbytes)


def _tile_view(buf, part, addr, tile_shape, dtype):
    """A [P, F...] tile of `dtype` at (part, addr) of the arena: byte strides in the free dims."""
    size = dtypes.SIZES[dtype]
    dims = tuple((stride * size, count) for stride, count in root_dims(tile_shape[1:]))
    extent = addr + size * _count(tile_shape[1:])
    if part < 0 or part + tile_shape[0] > HW.pmax or addr < 0:
        raise kernel_error(f"a tile placed at partition {part}, byte {addr} does not fit the {buf.memory}",
                           "check base_partition / base_addr against the tile's size")
    if extent > buf.shape[1]:
        buf.shape = (HW.pmax, extent)
    return Tensor(buf, part * ARENA_PSTRIDE + addr, ((ARENA_PSTRIDE, tile_shape[0]),) + dims, dtype)


def _count(shape):
    n = 1
    for d in shape:
        n *= d
    return n


class PlacedTensor(Tensor):
    """A placed tensor with block dimensions: integer block indices pick the block's own placement."""
    __slots__ = ("blocks", "tile_shape", "placed_at")

    def _tile(self, key):
        """(the block's tile, the rest of the key) for a key starting with integer block indices."""
        key = key if isinstance(key, tuple) else (key,)
        nb = len(self.blocks)
        head = key[:nb]
        if len(head) == nb and all(isinstance(k, int) and not isinstance(k, bool) for k in head):
            idx = tuple(k + b if k < 0 else k for k, b in zip(head, self.blocks))
            if any(not 0 <= k < b for k, b in zip(idx, self.blocks)):
                raise kernel_error(f"block index {head} is out of bounds for blocks {list(self.blocks)}")
            return self.placed_at(idx), key[nb:]
        raise unsupported("slicing across the blocks of a directly allocated tensor",
                          "index its block dimensions with integers (loop indices), one tile at a time")

    def __getitem__(self, key):
        tile, rest = self._tile(key)
        return tile[rest] if rest else tile

    def __setitem__(self, key, value):
        tile, rest = self._tile(key)
        tile[rest if rest else ...] = value


def allocate(shape, dtype, allocator, pi, name, loc):
    """A placed tensor of user `shape` (partition at index `pi`) in the allocator's memory."""
    memory = allocator.memory
    if memory not in ("sbuf", "psum"):
        raise unsupported(f"direct allocation in {memory}", "place SBUF or PSUM tiles only")
    blocks, tile_shape = tuple(shape[:pi]), tuple(shape[pi:])
    fbytes = dtypes.SIZES[dtype] * _count(tile_shape[1:])
    buf = arena(memory, loc)
    placement, func = allocator.placement, getattr(allocator, "func", None)

    def placed_at(idx):
        part, addr = block_address(placement, func, memory, idx, tile_shape[0], fbytes)
        return _tile_view(buf, part, addr, tile_shape, dtype)

    if not blocks:
        return placed_at(())
    first = placed_at((0,) * len(blocks))
    # Used whole (not block by block), the blocks read as if laid one after another from block 0.
    block_dims = tuple((stride * fbytes, count) for stride, count in root_dims(blocks))
    t = PlacedTensor(buf, first.off, block_dims + first.dims, dtype)
    t.blocks, t.tile_shape, t.placed_at = blocks, tile_shape, placed_at
    t.shape = tuple(shape)
    return t
