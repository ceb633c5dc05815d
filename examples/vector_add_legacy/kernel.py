"""Element-wise addition of two [4096, 1024] float32 tensors (legacy NKI API).

Launched on a 2-D SPMD grid: every program instance adds one [128, 512] tile.
With the task's grid [32, 2] the instances cover all 4096 rows and 1024 columns.
"""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl

TILE_ROWS = 128   # one row per partition
TILE_COLS = 512   # 2 KiB of float32 per partition per transfer


@nki.jit
def nki_vector_add(a, b):
    rows, cols = a.shape
    assert b.shape == a.shape
    out = nl.ndarray((rows, cols), dtype=a.dtype, buffer=nl.shared_hbm)

    # The program ids play the role of blockIdx.
    row0 = nl.program_id(0) * TILE_ROWS  # cuda: 15
    col0 = nl.program_id(1) * TILE_COLS  # cuda: 14

    i_p = row0 + nl.arange(TILE_ROWS)[:, None]
    i_f = col0 + nl.arange(TILE_COLS)[None, :]

    a_tile = nl.load(a[i_p, i_f])  # cuda: 20
    b_tile = nl.load(b[i_p, i_f])  # cuda: 21

    c_tile = nl.add(a_tile, b_tile)  # cuda: 22

    nl.store(out[i_p, i_f], value=c_tile)  # cuda: 22
    return out
