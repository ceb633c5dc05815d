"""`nki.collectives` and `nki.lnc`: communication between cores and ranks.

KernelLens simulates one NeuronCore's program, so a collective is recorded as the DMA traffic that core
sees (each destination written from its source), and rank queries answer rank 0.
"""
from .emit import emit
from .errors import kernel_error
from .isa_more import sendrecv, core_barrier
from .language_more import NKIObject
from .ops import op_name
from .tracer import T
from .views import Tensor


class ReplicaGroup(NKIObject):
    def __init__(self, replica_groups=None, **kwargs):
        super().__init__(replica_groups=replica_groups, **kwargs)


def _transfers(name, srcs, dsts, attrs=None):
    srcs, dsts = list(srcs or []), list(dsts or [])
    if not all(isinstance(t, Tensor) for t in srcs + dsts):
        raise kernel_error(f"{name} takes lists of tensors as srcs and dsts")
    T.warn(f"{name} is recorded as this core's DMA traffic; other ranks are not simulated", once_key=(name,))
    for i, dst in enumerate(dsts):
        src = srcs[min(i, len(srcs) - 1)] if srcs else None
        emit("dma_copy", "dma", [dst], [src] if src is not None else [], dict(attrs or {}, isa=name))


def _flat(items):
    out = []
    for item in items or []:
        out.extend(_flat(item) if isinstance(item, (list, tuple)) else [item])
    return out


def _collective(name):
    def call(*args, op=None, **kwargs):
        # srcs/dsts, or per-channel lists (srcs_by_channel, srcs0_by_channel, dsts_by_channel) by keyword
        srcs = _flat([v for k, v in kwargs.items() if k.startswith("srcs")] or args[:1])
        dsts = _flat([v for k, v in kwargs.items() if k.startswith("dsts")] or args[1:2])
        _transfers(name, srcs, dsts, {"op0": op_name(op)} if op is not None else None)
    call.__name__ = name
    return call


def _rank(*_, **__):
    return 0


def namespace():
    ns = {name: _collective(name) for name in (
        "all_reduce", "all_gather", "all_gather_v", "reduce_scatter", "all_to_all", "all_to_all_v",
        "collective_permute", "collective_permute_implicit", "collective_permute_implicit_reduce")}
    ns.update({"ReplicaGroup": ReplicaGroup, "rank_id": _rank,
               "collective_permute_implicit_current_processing_rank_id": _rank})
    return ns


def lnc_namespace():
    """`nki.lnc`: the logical-NeuronCore calls moved out of nki.isa in 0.8."""
    return {"sendrecv": sendrecv, "core_barrier": core_barrier, "sendrecv_compute": sendrecv,
            "program_id": lambda axis=0: T.pid[axis] if axis < len(T.pid) else 0}
