"""Loops that loop replication must trace exactly as plain tracing does (tests/frontend/test_replication.py).

Each kernel takes a [R, 64] float32 tensor `a` (R = 128 x rows) and names what it tries to trip up.
"""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl
from rep_helper import tile_starts

TRACE_LOG = []


def _rows(a, k):
    return a[k * 128:(k + 1) * 128, :]


@nki.jit
def plain_affine(a):
    """The replicable case: a straight-line body, affine in the loop variable."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        x = nl.load(a[k * 128:(k + 1) * 128, :])
        y = nl.multiply(x, 2.0)
        nl.store(out[k * 128:(k + 1) * 128, :], value=y)
    return out


@nki.jit
def branch_on_k(a):
    """Control flow follows the loop variable: iteration 11 stores something else."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        x = nl.load(a[k * 128:(k + 1) * 128, :])
        if k == 11:
            x = nl.exp(x)
        nl.store(out[k * 128:(k + 1) * 128, :], value=x)
    return out


@nki.jit
def tile_used_after(a):
    """A tile made in the loop is used after it: it must be the last iteration's."""
    n = a.shape[0] // 128
    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        x = nl.load(a[k * 128:(k + 1) * 128, :])
        y = nl.add(x, 1.0)
    z = nl.multiply(y, x)
    nl.store(out, value=z)
    return out


@nki.jit
def list_appended(a):
    """A Python list grows in the loop and is used after it."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    tiles = []
    for k in nl.affine_range(n):
        tiles.append(nl.load(a[k * 128:(k + 1) * 128, :]))
    for k in nl.affine_range(len(tiles)):
        nl.store(out[k * 128:(k + 1) * 128, :], value=tiles[k])
    return out


@nki.jit
def counter_carried(a):
    """An integer carried from one iteration to the next picks the rows."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    row = 0
    for k in nl.affine_range(n):
        x = nl.load(a[row:row + 128, :])
        nl.store(out[k * 128:(k + 1) * 128, :], value=x)
        row += 128
    return out


@nki.jit
def helper_with_state(a):
    """A kernel helper called in the body keeps state of its own and branches on it."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        x = nl.load(_rows(a, k))
        TRACE_LOG.append(k)
        nl.store(out[k * 128:(k + 1) * 128, :], value=x)
    return out


@nki.jit
def nested(a):
    """Nested loops: the outer one runs plainly, the inner one may be replicated."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(2):
        for k in nl.affine_range(n // 2):
            x = nl.load(a[(i * (n // 2) + k) * 128:(i * (n // 2) + k + 1) * 128, :])
            nl.store(out[(i * (n // 2) + k) * 128:(i * (n // 2) + k + 1) * 128, :], value=x)
    return out


@nki.jit
def late_exception(a):
    """Reads past the end of `a` from iteration a.shape[0] // 128 on: the trace must fail the same way."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n + 3):
        x = nl.load(a[k * 128:(k + 1) * 128, :])
        nl.store(out[0:128, :], value=x)
    return out


def _fails_at(k):
    assert k != 13, "iteration 13 is refused"
    return k


@nki.jit
def helper_raises(a):
    """A helper raises in one middle iteration only."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        x = nl.load(a[_fails_at(k) * 128:(k + 1) * 128, :])
        nl.store(out[k * 128:(k + 1) * 128, :], value=x)
    return out


@nki.jit
def short_loops(a):
    """Trip counts 1 and 2 (and the loop after them, long)."""
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(1):
        x = nl.load(a[k * 128:(k + 1) * 128, :])
        nl.store(out[k * 128:(k + 1) * 128, :], value=x)
    for k in nl.affine_range(2):
        x = nl.load(a[(k + 1) * 128:(k + 2) * 128, :])
        nl.store(out[(k + 1) * 128:(k + 2) * 128, :], value=x)
    for k in nl.affine_range(a.shape[0] // 128 - 3):
        x = nl.load(a[(k + 3) * 128:(k + 4) * 128, :])
        nl.store(out[(k + 3) * 128:(k + 4) * 128, :], value=x)
    return out


@nki.jit
def modulo_buffers(a):
    """Double buffering by k % 2, and rows picked by k // 4 and by k * k (not affine)."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    bufs = nl.ndarray((2, nl.par_dim(128), 64), dtype=a.dtype, buffer=nl.sbuf)
    for k in nl.affine_range(n):
        bufs[k % 2] = nl.load(a[k * 128:(k + 1) * 128, :])
        nl.store(out[(k // 4) * 128:(k // 4 + 1) * 128, :], value=bufs[k % 2])
    for k in nl.affine_range(n // 4):
        x = nl.load(a[k * k:k * k + 128, :])
        nl.store(out[k * 128:(k + 1) * 128, :], value=x)
    return out


@nki.jit
def table_lookup(a):
    """Rows looked up in a Python table by the loop variable (affine for the first entries only)."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    starts = [128 * k for k in range(6)] + [0] * (n - 6)
    for k in nl.affine_range(n):
        x = nl.load(a[starts[k]:starts[k] + 128, :])
        nl.store(out[k * 128:(k + 1) * 128, :], value=x)
    return out


@nki.jit
def carried_tile(a):
    """The previous iteration's tile is used in the next one."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    cur = nl.load(a[0:128, :])
    for k in nl.affine_range(n - 1):
        prev = cur
        cur = nl.load(a[(k + 1) * 128:(k + 2) * 128, :])
        nl.store(out[k * 128:(k + 1) * 128, :], value=nl.add(prev, cur))
    return out


@nki.jit
def psum_accumulate(a, w):
    """PSUM accumulation over a long K loop, the accumulator read after the loop."""
    k_tiles = a.shape[0] // 128
    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    acc = nl.zeros((128, 64), dtype=nl.float32, buffer=nl.psum)
    for k in nl.affine_range(k_tiles):
        lhs = nl.load(w[k * 128:(k + 1) * 128, :])
        rhs = nl.load(a[k * 128:(k + 1) * 128, :])
        acc += nl.matmul(lhs, rhs, transpose_x=True)
    nl.store(out, value=nl.copy(acc, dtype=a.dtype))
    return out


@nki.jit
def clamped_tail(a):
    """Rows not a multiple of 128: Python slicing clamps the last tile (or the front end refuses it)."""
    n = (a.shape[0] + 127) // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        x = nl.load(a[k * 128:(k + 1) * 128, :])
        nl.store(out[k * 128:(k + 1) * 128, :], value=x)
    return out


@nki.jit
def column_overrun(a):
    """Columns run past the end of `a` in the last iterations only (the rows stay inside)."""
    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(20):
        x = nl.load(a[0:128, k * 4:k * 4 + 8])
        nl.store(out[0:128, 0:8], value=x)
    return out


@nki.jit
def helper_generator(a):
    """The loop is in a helper file's generator: replication must not list that file in the IR."""
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for s in tile_starts(a.shape[0] // 128):
        x = nl.load(a[s:s + 128, :])
        nl.store(out[s:s + 128, :], value=x)
    return out


@nki.jit
def caught_overrun(a):
    """The kernel catches the error of a late iteration and carries on: the iterations before it stay."""
    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    try:
        for k in nl.affine_range(20):
            x = nl.load(a[0:128, k * 4:k * 4 + 8])
            nl.store(out[0:128, 0:8], value=x)
    except Exception:
        pass
    y = nl.load(a[0:128, 0:64])
    nl.store(out, value=y)
    return out


@nki.jit
def nested_short_inner(a):
    """Nested replication: a short inner loop (4 trips) runs plainly inside each outer iteration."""
    n = a.shape[0] // 512
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        for j in nl.affine_range(4):
            x = nl.load(a[(k * 4 + j) * 128:(k * 4 + j + 1) * 128, :])
            nl.store(out[(k * 4 + j) * 128:(k * 4 + j + 1) * 128, :], value=nl.multiply(x, 2.0))
    return out


@nki.jit
def nested_three_levels(a):
    """Three levels: the outer loop holds two short ones, one inside the other."""
    n = a.shape[0] // 512
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        for i in nl.affine_range(2):
            for j in nl.affine_range(2):
                r = (k * 4 + i * 2 + j) * 128
                x = nl.load(a[r:r + 128, :])
                nl.store(out[r:r + 128, :], value=nl.add(x, 1.0))
    return out


@nki.jit
def nested_inner_trips_follow_outer(a):
    """The inner trip count depends on the outer variable: the outer loop must be traced plainly."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n // 8):
        for j in nl.affine_range(k % 3 + 1):
            x = nl.load(a[(k * 8 + j) * 128:(k * 8 + j + 1) * 128, :])
            nl.store(out[(k * 8 + j) * 128:(k * 8 + j + 1) * 128, :], value=x)
    return out


@nki.jit
def nested_inner_trips_affine(a):
    """The inner trip count grows with the outer variable (affinely): still not one template."""
    n = a.shape[0] // 128
    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n // 8):
        for j in nl.affine_range(k + 1):
            x = nl.load(a[j * 128:(j + 1) * 128, :])
            nl.store(out, value=x)
    return out


@nki.jit
def nested_tile_after_outer(a):
    """Tiles made in the inner loop are read after the outer loop: they must be the last iteration's."""
    n = a.shape[0] // 256
    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        for j in nl.affine_range(2):
            x = nl.load(a[(k * 2 + j) * 128:(k * 2 + j + 1) * 128, :])
            y = nl.add(x, 1.0)
    nl.store(out, value=nl.multiply(y, x))
    return out


@nki.jit
def nested_late_exception(a):
    """The inner loop reads past the end of `a` in the last outer iterations: the trace fails as plainly."""
    n = a.shape[0] // 256
    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n + 2):
        for j in nl.affine_range(2):
            x = nl.load(a[(k * 2 + j) * 128:(k * 2 + j + 1) * 128, :])
            nl.store(out, value=x)
    return out


@nki.jit
def nested_break(a):
    """An early exit inside the inner loop (a break on the outer variable)."""
    n = a.shape[0] // 256
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        for j in nl.affine_range(2):
            if k == n - 3:
                break
            x = nl.load(a[(k * 2 + j) * 128:(k * 2 + j + 1) * 128, :])
            nl.store(out[(k * 2 + j) * 128:(k * 2 + j + 1) * 128, :], value=x)
    return out


@nki.jit
def nested_helper_in_inner(a):
    """A kernel helper with state is called in the inner loop: only the profile hook can see it."""
    n = a.shape[0] // 256
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        for j in nl.affine_range(2):
            x = nl.load(_rows(a, k * 2 + j))
            TRACE_LOG.append(k)
            nl.store(out[(k * 2 + j) * 128:(k * 2 + j + 1) * 128, :], value=x)
    return out


@nki.jit
def nested_psum(a, w):
    """matmul_optimized's shape: a PSUM tile zeroed per outer iteration, accumulated over a short inner loop and
    folded into an SBUF accumulator made before the loop."""
    n = a.shape[0] // 512
    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    acc = nl.zeros((128, 64), dtype=nl.float32, buffer=nl.sbuf)
    for k in nl.affine_range(n):
        part = nl.zeros((128, 64), dtype=nl.float32, buffer=nl.psum)
        for j in nl.affine_range(4):
            lhs = nl.load(w[(k * 4 + j) * 128:(k * 4 + j + 1) * 128, :])
            rhs = nl.load(a[(k * 4 + j) * 128:(k * 4 + j + 1) * 128, :])
            part[...] += nl.matmul(lhs, rhs, transpose_x=True)
        acc[...] = nl.add(acc, part)
    nl.store(out, value=acc)
    return out


def _logging_wrapper(f):
    def wrapped(*args):
        TRACE_LOG.append(len(TRACE_LOG))
        return f(*args)
    return wrapped


_logged_multiply = _logging_wrapper(nl.multiply)


@nki.jit
def wrapped_front_end_call(a):
    """A kernel-made closure around a front-end function, called through a module-level name: the call is not
    front-end code although the function it wraps is (the static call check must refuse it)."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        x = nl.load(a[k * 128:(k + 1) * 128, :])
        nl.store(out[k * 128:(k + 1) * 128, :], value=_logged_multiply(x, 2.0))
    return out


@nki.jit
def zeros_first_read_in_loop(a):
    """A PSUM tile zeroed before the loop is first read in iteration 0, which writes its zeros (a memset the later
    iterations do not have): iteration 0 differs, so the decision waits for iterations 1, 2 and 3."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    bias = nl.zeros((128, 64), dtype=nl.float32, buffer=nl.psum)
    for k in nl.affine_range(n):
        x = nl.load(a[k * 128:(k + 1) * 128, :])
        nl.store(out[k * 128:(k + 1) * 128, :], value=nl.add(x, bias))
    return out



@nki.jit
def packed_rows(a):
    """Each iteration packs two halves into a new tile, then stores the whole tile through index grids made in
    the body, as matmul_optimized packs its result rows. Iteration 0 leaves the tile's cached whole-tile access
    pattern unset where the later iterations set it: a cache, not a difference, so the loop decides early."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        i_half = nl.mgrid[0:128, 0:32]
        i_row = nl.mgrid[0:128, 0:64]
        packed = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.sbuf)
        for h in nl.affine_range(2):
            packed[i_half.p, h * 32 + i_half.x] = nl.load(a[k * 128 + i_half.p, h * 32 + i_half.x])
        nl.store(out[k * 128 + i_row.p, i_row.x], value=packed[i_row.p, i_row.x])
    return out


@nki.jit
def rows_read_twice(a):
    """The second loop reads and writes the rows the first one did: its moving operands on `a` and `out` are pooled
    already in every iteration, so the block writer takes their indices from the pool, one per iteration (explicit
    columns of ircolumns' arrays), not by arithmetic."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        x = nl.load(a[k * 128:(k + 1) * 128, :])
        nl.store(out[k * 128:(k + 1) * 128, :], value=x)
    for k in nl.affine_range(n):
        y = nl.load(a[k * 128:(k + 1) * 128, :])
        nl.store(out[k * 128:(k + 1) * 128, :], value=nl.add(y, 1.0))
    return out


@nki.jit
def nested_stores_twice(a):
    """A nested loop's block of few iterations whose operand lists hold only operands of buffers made before the
    loop: the block writer pools those lists by rows (ircolumns._new_lists), and the second loop nest, which makes the
    same stores again, finds them there."""
    out = nl.ndarray((1024, 512), dtype=a.dtype, buffer=nl.shared_hbm)
    t = nl.load(a[0:128, :])
    for _ in range(2):
        for i in nl.affine_range(8):
            for j in nl.affine_range(8):
                nl.store(out[i * 128:(i + 1) * 128, j * 64:(j + 1) * 64], value=t)
    return out


@nki.jit
def rows_overrun_midway(a):
    """Every other tile of `a`: the reads leave `a` from iteration n / 2 on, long before the last one. Run out of
    order, the last iteration would fail first, with its own slice in the message (replicate._last_in_bounds)."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        x = nl.load(a[k * 256:k * 256 + 128, :])
        nl.store(out[k * 128:(k + 1) * 128, :], value=x)
    return out


@nki.jit
def temporary_made_before_the_loop(a):
    """A temporary made just before the loop is assigned into a tile by the body's first statement: iteration 0
    retargets its instruction (the tile it made is dropped, and it is the last one made), later iterations copy.
    Replication's marks count buffers from before it, so the dropped tile must keep its place."""
    n = a.shape[0] // 128
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    keep = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.sbuf)
    first = nl.multiply(nl.load(a[0:128, :]), 3.0)
    for k in nl.affine_range(n):
        keep[...] = first
        x = nl.load(a[k * 128:(k + 1) * 128, :])
        y = nl.add(x, keep)
        nl.store(out[k * 128:(k + 1) * 128, :], value=y)
    return out
