"""Direct allocation (legacy API): four logical tiles rotating over two physical SBUF tiles (modulo
allocation), a PSUM accumulator in bank 2, and tiles placed by allocation functions (SBUF, and PSUM bank 5
through functools.partial, called with keywords)."""
import functools

import neuronxcc.nki as nki
import neuronxcc.nki.compiler as ncc
import neuronxcc.nki.language as nl


def third_of_a_partition(idx, pdim_size, fdim_size):  # called with keywords
    return 0, 65536 + idx[0] * fdim_size


def bank_of(bank_map, idx, pdim_size, fdim_size):  # PSUM: (bank, start partition, byte)
    return bank_map[idx], 0, 0


@nki.jit
def placed_tiles(a):
    out = nl.ndarray((128, 512), dtype=a.dtype, buffer=nl.shared_hbm)
    bufs = nl.ndarray((4, nl.par_dim(128), 512), dtype=a.dtype,
                      buffer=ncc.sbuf.mod_alloc(base_addr=0, num_free_tiles=(2,)))
    acc = nl.ndarray((128, 512), dtype=nl.float32, buffer=ncc.psum.mod_alloc(base_bank=2))
    extra = nl.ndarray((1, nl.par_dim(128), 512), dtype=a.dtype, buffer=ncc.sbuf.alloc(third_of_a_partition))
    for i in nl.affine_range(4):
        bufs[i] = nl.load(a[i * 128:(i + 1) * 128, :])
        extra[0] = nl.exp(bufs[i])
    acc[...] = nl.copy(extra[0])
    res = nl.ndarray((1, nl.par_dim(128), 512), dtype=nl.float32,
                     buffer=ncc.psum.alloc(functools.partial(bank_of, bank_map={(0,): 5})))
    res[0] = nl.copy(acc)
    nl.store(out, nl.copy(res[0]))
    return out
