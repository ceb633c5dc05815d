"""The ISA calls added in the `nki` releases (0.2-0.8) beyond the classic set in isa.py.

Each body takes the standalone signature (destination first; `dst=None` from a legacy call allocates the
result and returns it). An instruction that the simulator has no cost entry for is recorded as the
closest costed operation (`COSTED_AS`) on its real engine, with `"isa"` naming the real call in its
attributes, so the timeline and the inspector still say what the kernel called.
"""
from . import ops, optable, tensor_engine
from .emit import emit, new_tile, require_onchip, dtype_arg
from .errors import kernel_error, unsupported
from .ops import op_name, engine_arg, _is_tile
from .tracer import T
from .views import Tensor

# real ISA call -> (IR op it is costed as, default engine). One table: a new call is one line here.
COSTED_AS = {
    "scalar_tensor_tensor": ("tensor_tensor", "vector"),
    "tensor_scalar_reduce": ("tensor_scalar", "vector"),
    "tensor_scalar_cumulative": ("tensor_tensor_scan", "vector"),
    "tensor_copy_predicated": ("tensor_copy", "vector"),
    "tensor_partition_reduce": ("tensor_reduce", "gpsimd"),
    "exponential": ("activation", "scalar"),
    "activate2": ("activation", "scalar"),
    "local_gather": ("tensor_copy", "gpsimd"),
    "nc_n_gather": ("tensor_copy", "gpsimd"),
    "nc_stream_shuffle": ("tensor_copy", "vector"),
    "max8": ("tensor_reduce", "vector"),
    "nc_find_index8": ("tensor_reduce", "vector"),
    "nc_match_replace8": ("tensor_tensor", "vector"),
    "topk": ("tensor_reduce", "vector"),
    "nonzero_with_count": ("tensor_copy", "gpsimd"),
    "sequence_bounds": ("tensor_reduce", "vector"),
    "select_reduce": ("select", "vector"),
    "range_select": ("select", "vector"),
    "dropout": ("tensor_scalar", "vector"),
    "rng": ("iota", "vector"),
    "rand2": ("iota", "gpsimd"),
    "rand_get_state": ("tensor_copy", "gpsimd"),
    "quantize_mx": ("tensor_scalar", "vector"),
    "register_load": ("tensor_copy", "gpsimd"),
    "register_store": ("memset", "gpsimd"),
}
_unknown = sorted(op for op, _ in COSTED_AS.values() if op not in optable.OPS)
if _unknown:  # the one op table (ops.def) is the simulator's: an op missing there would be costed as unknown
    raise ImportError(f"COSTED_AS records ops that ops.def does not define: {_unknown}")


def generic(name, dst, srcs, scalars=None, out_shape=None, dtype=None, engine=None, extra_dsts=()):
    """Record call `name`: reads the tiles in `srcs`, writes `dst` (allocated like the first source when
    None) and any `extra_dsts`; non-tile operands go into the attributes."""
    ir_op, default_engine = COSTED_AS[name]
    tiles = [s for s in srcs if _is_tile(s)]
    for t in tiles:
        require_onchip(t, f"nisa.{name}")
    loc = T.loc()
    like = tiles[0] if tiles else dst
    if like is None:
        raise kernel_error(f"nisa.{name} needs a destination tile")
    if dst is None:
        shape = out_shape if out_shape is not None else like.shape
        res = new_tile(shape, dtype_arg(dtype, like.dtype), "sbuf", loc, name)
    elif isinstance(dst, Tensor):
        res = dst  # these calls change shapes in call-specific ways (gathers, shuffles, top-8): dst is the truth
    else:
        raise kernel_error(f"nisa.{name}: dst must be a tile, got {type(dst).__name__}")
    attrs = {"isa": name}
    for key, value in (scalars or {}).items():
        if _is_tile(value):
            require_onchip(value, f"nisa.{name}", key)
            tiles.append(value)
        elif value is not None:
            attrs[key] = op_name(value) if callable(value) else getattr(value, "value", value)
    outs = [res] + [d for d in extra_dsts if _is_tile(d)]
    ins = emit(ir_op, engine_arg(engine, default_engine), outs, tiles, attrs, loc=loc)
    if dst is None:
        res.buf.producer = ins
    return res


_EXTRA_DSTS = ("reduce_res", "dst_idx", "dst_scale")  # operands that are written, not read


def _call(name, sources, scalar_names=(), shape_of=None):
    """A body for `name(dst, <sources...>, <scalars...>, **options)` built from the generic recorder."""
    def body(dst=None, *args, engine=None, dtype=None, mask=None, name=None, **kw):
        names = list(sources) + list(scalar_names)
        values = dict(zip(names, args))
        values.update({k: v for k, v in kw.items() if k in names or k.startswith("reduce")})
        srcs = [values.get(s) for s in sources]
        extras = [v for k, v in values.items() if k in _EXTRA_DSTS]
        scalars = {k: v for k, v in values.items() if k not in sources and k not in _EXTRA_DSTS}
        shape = shape_of(dst, srcs) if shape_of else None
        return generic(body.isa, dst, srcs, scalars, shape, dtype, engine, extras)
    body.isa = name
    body.__name__ = name
    return body


def _partition_reduced(dst, srcs):
    return None if dst is not None else (1,) + tuple(srcs[0].shape[1:])


def _eight(dst, srcs):
    return None if dst is not None else (srcs[0].shape[0], 8)


BODIES = {
    "scalar_tensor_tensor": _call("scalar_tensor_tensor", ("data", "operand1"),
                                  ("op0", "operand0", "op1", "reverse0", "reverse1")),
    "tensor_scalar_reduce": _call("tensor_scalar_reduce", ("data",),
                                  ("op0", "operand0", "reduce_op", "reduce_res", "reverse0")),
    "tensor_scalar_cumulative": _call("tensor_scalar_cumulative", ("src",), ("op0", "op1", "imm0", "imm1")),
    "tensor_copy_predicated": _call("tensor_copy_predicated", ("predicate", "src"), ("reverse_pred",)),
    "tensor_partition_reduce": _call("tensor_partition_reduce", ("data",), ("op",), _partition_reduced),
    "exponential": _call("exponential", ("src",), ("max_value", "reduce_res")),
    "activate2": _call("activate2", ("data",), ("op", "imm0", "imm1", "op0", "op1")),
    "local_gather": _call("local_gather", ("src_buffer", "index"), ("num_elem_per_idx",)),
    "nc_n_gather": _call("nc_n_gather", ("data", "indices")),
    "nc_stream_shuffle": _call("nc_stream_shuffle", ("src",), ("shuffle_mask",)),
    "max8": _call("max8", ("src",), (), _eight),
    "nc_find_index8": _call("nc_find_index8", ("data", "vals"), (), _eight),
    "nc_match_replace8": _call("nc_match_replace8", ("data", "vals"), ("imm", "dst_idx")),
    "nonzero_with_count": _call("nonzero_with_count", ("src",), ("index_offset", "padding_val")),
    "sequence_bounds": _call("sequence_bounds", ("segment_ids",)),
    "select_reduce": _call("select_reduce", ("predicate", "on_true"), ("on_false", "reduce_res", "reduce_op")),
    "range_select": _call("range_select", ("on_true_tile", "bound0", "bound1"),
                          ("comp_op0", "comp_op1", "reduce_res", "reduce_op", "on_false_value")),
    "dropout": _call("dropout", ("data",), ("prob",)),
    "rand2": _call("rand2", (), ("min", "max")),
    "rng": _call("rng", ()),
    "rand_get_state": _call("rand_get_state", ()),
    "quantize_mx": _call("quantize_mx", ("src",), ("dst_scale",)),
}


def topk(val_dst, idx_dst, src, n, name=None, **_):
    generic("topk", val_dst, [src], {"n": n}, extra_dsts=(idx_dst,))


def nc_matmul_mx(dst, stationary, moving, stationary_scale=None, moving_scale=None, tile_position=None,
                 tile_size=None, accumulate=None, name=None, **_):
    """MX matmul (NeuronCore-v4): costed as an nc_matmul over the packed operands; the scales are read."""
    for t, role in ((stationary, "stationary"), (moving, "moving")):
        if not _is_tile(t):
            raise kernel_error(f"nisa.nc_matmul_mx: {role} must be a tile, got {type(t).__name__}")
    return tensor_engine.nc_matmul(dst, stationary, moving, accumulate=accumulate,
                         extra_srcs=[s for s in (stationary_scale, moving_scale) if _is_tile(s)],
                         isa="nc_matmul_mx")


def dma_transpose(dst, src, axes=None, priority=None, dge_mode=None, oob_mode=None, name=None, **_):
    return ops.dma(dst, src, None, None, "nisa.dma_transpose", transpose=True)


def dma_compute(dst, srcs, reduce_op=None, scales=None, unique_indices=True, oob_mode=None, name=None, **_):
    srcs = list(srcs)
    if not srcs or not all(isinstance(s, Tensor) for s in srcs):
        raise kernel_error("nisa.dma_compute takes a list of source tensors")
    emit("dma_copy", "dma", [dst], srcs, {"isa": "dma_compute", "op0": op_name(reduce_op) or "add"})


def sendrecv(src, dst, send_to_rank=None, recv_from_rank=None, pipe_id=None, dma_engine=None, name=None, **_):
    """Core-to-core transfer of a logical NeuronCore pair: recorded as one DMA from src into dst."""
    if not isinstance(src, Tensor) or not isinstance(dst, Tensor):
        raise kernel_error("nisa.sendrecv takes a source and a destination tile")
    emit("dma_copy", "dma", [dst], [src], {"isa": "sendrecv"})


def core_barrier(data=None, cores=None, engine=None, name=None, **_):
    T.warn("nisa.core_barrier is recorded without cost: the simulator runs one core's program",
           once_key=("core_barrier",))


class VirtualRegister:
    """A scalar register. Its value is known while tracing only when the kernel set it from a constant;
    a value loaded from device memory keeps the last known one (with a warning)."""
    __slots__ = ("value",)

    def __init__(self, value=0):
        self.value = value

    def __index__(self):
        return int(self.value)

    __int__ = __index__

    def __repr__(self):
        return f"<register {self.value}>"


class NkiScalar(VirtualRegister):
    """`nisa.scalar_load`'s result (NKI 0.8): an integer computed on device. Arithmetic on it is recorded
    as plain Python values when known; a value loaded from memory is unknown while tracing (None), and a
    loop bounded by it runs once (with a warning, see language_more._bound)."""
    __slots__ = ("dtype",)

    def __init__(self, value=None, dtype="int32"):
        super().__init__(value)
        self.dtype = dtype

    def _op(self, other, fn):
        b = other.value if isinstance(other, VirtualRegister) else other
        return NkiScalar(None if self.value is None or b is None else fn(self.value, b), self.dtype)

    def __add__(self, o): return self._op(o, lambda a, b: a + b)
    def __radd__(self, o): return self._op(o, lambda a, b: b + a)
    def __sub__(self, o): return self._op(o, lambda a, b: a - b)
    def __rsub__(self, o): return self._op(o, lambda a, b: b - a)
    def __mul__(self, o): return self._op(o, lambda a, b: a * b)
    def __rmul__(self, o): return self._op(o, lambda a, b: b * a)
    def __neg__(self): return self._op(0, lambda a, b: -a)

    def __index__(self):
        if self.value is None:
            raise unsupported("an NkiScalar loaded from device memory used as a Python integer",
                              "its value is known only on the device; use it as a fori_loop bound or scalar_offset")
        return int(self.value)

    __int__ = __index__


def scalar_load(src, name=None, **_):
    generic("register_load", new_tile((1, 1), "int32", "sbuf", T.loc(), "scalar"), [src], out_shape=(1, 1))
    return NkiScalar(None, getattr(src, "dtype", "int32"))


def scalar_store(dst, value, name=None, **_):
    generic("register_store", dst, [], {"value": getattr(value, "value", value)})


def register_alloc(x=None):
    return VirtualRegister(0 if x is None else x)


def register_move(dst, src):
    dst.value = src.value if isinstance(src, VirtualRegister) else src


def register_load(dst, src):
    generic("register_load", new_tile((1, 1), "int32", "sbuf", T.loc(), "register"), [src], out_shape=(1, 1))
    T.warn(f"a register loaded from device memory keeps its traced value {dst.value} (data is not known while "
           "tracing)", once_key=("register_load", T.loc()[:1]))


def register_store(dst, src):
    generic("register_store", dst, [], {"value": getattr(src, "value", src)})


MORE = dict(BODIES, topk=topk, nc_matmul_mx=nc_matmul_mx, dma_transpose=dma_transpose, dma_compute=dma_compute,
            sendrecv=sendrecv, core_barrier=core_barrier, register_alloc=register_alloc,
            register_move=register_move, register_load=register_load, register_store=register_store,
            scalar_load=scalar_load, scalar_store=scalar_store)
