"""An embedding-style gather (legacy API): rows of a table picked by a tile of indices, then a scatter."""
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def gather_rows(table, ids):
    out = nl.ndarray((128, 64), dtype=table.dtype, buffer=nl.shared_hbm)
    idx = nl.load(ids)                                   # [128, 1] int32 row numbers
    i_f = nl.arange(64)[None, :]
    rows = nl.load(table[idx, i_f])                      # gather: 128 rows of 64
    nl.store(out[idx, i_f], rows)                        # scatter by the same indices
    return out
