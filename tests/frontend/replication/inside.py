"""Inner loops that replicate inside the iterations of a replicated outer loop (kltrace/replicate.py, INSIDE),
for tests/frontend/test_replication.py: each must trace exactly as plainly, and replicate only where it is sound.

Each kernel takes a [R, 64] float32 tensor `a`; R = 128 x 16 x the outer trip count unless it says otherwise.
"""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def two_levels(a):
    """An outer loop over an inner one of 16 trips: the inner loop replicates in each traced outer iteration, and
    the outer one over them."""
    n = a.shape[0] // 2048
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        for j in nl.affine_range(16):
            r = (k * 16 + j) * 128
            x = nl.load(a[r:r + 128, :])
            nl.store(out[r:r + 128, :], value=nl.multiply(x, 2.0))
    return out


@nki.jit
def three_levels(a):
    """Three levels, each replicating inside the one around it; R = 128 x 16 x 6 x the outer trip count."""
    n = a.shape[0] // (2048 * 6)
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for i in nl.affine_range(n):
        acc = nl.zeros((128, 64), dtype=nl.float32, buffer=nl.sbuf)
        for k in nl.affine_range(6):
            for j in nl.affine_range(16):
                r = ((i * 6 + k) * 16 + j) * 128
                x = nl.load(a[r:r + 128, :])
                acc += x
                nl.store(out[r:r + 128, :], value=nl.add(x, 1.0))
        nl.store(out[i * 128:i * 128 + 128, :], value=acc)
    return out


@nki.jit
def inner_trips_follow_outer(a):
    """The inner trip count depends on the outer variable: the outer loop is traced plainly, the inner one (16 to
    18 trips) still replicates on its own."""
    n = a.shape[0] // 2560
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        for j in nl.affine_range(k % 3 + 16):
            r = (k * 20 + j) * 128
            x = nl.load(a[r:r + 128, :])
            nl.store(out[r:r + 128, :], value=x)
    return out


@nki.jit
def tiles_read_after(a):
    """Tiles made in the replicated inner loop are read after the outer loop: the last iteration's."""
    n = a.shape[0] // 2048
    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        for j in nl.affine_range(16):
            r = (k * 16 + j) * 128
            x = nl.load(a[r:r + 128, :])
            y = nl.add(x, 1.0)
    nl.store(out, value=nl.multiply(y, x))
    return out


@nki.jit
def late_exception(a):
    """The inner loop reads past the end of `a` in the last outer iterations: the trace fails as plainly."""
    n = a.shape[0] // 2048
    out = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n + 2):
        for j in nl.affine_range(16):
            r = (k * 16 + j) * 128
            x = nl.load(a[r:r + 128, :])
            nl.store(out, value=x)
    return out


@nki.jit
def break_in_inner(a):
    """An early exit in the inner loop, on the outer variable: nothing replicates across it."""
    n = a.shape[0] // 2048
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        for j in nl.affine_range(16):
            if k == n - 3 and j == 5:
                break
            r = (k * 16 + j) * 128
            x = nl.load(a[r:r + 128, :])
            nl.store(out[r:r + 128, :], value=x)
    return out


@nki.jit
def closure_in_inner(a):
    """The inner loop calls a closure the kernel made: kernel code runs in the body (the profile hook watches it),
    so the outer loop holds its inner loops only plainly, or not at all."""
    n = a.shape[0] // 2048
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    factor = [2.0]

    def scaled(t):
        factor[0] += 1.0
        return nl.multiply(t, factor[0])

    for k in nl.affine_range(n):
        for j in nl.affine_range(16):
            r = (k * 16 + j) * 128
            x = nl.load(a[r:r + 128, :])
            nl.store(out[r:r + 128, :], value=scaled(x))
    return out


@nki.jit
def pure_closure_in_inner(a):
    """The same with a closure that keeps no state: still kernel code, so still watched."""
    n = a.shape[0] // 2048
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)

    def doubled(t):
        return nl.multiply(t, 2.0)

    for k in nl.affine_range(n):
        for j in nl.affine_range(16):
            r = (k * 16 + j) * 128
            x = nl.load(a[r:r + 128, :])
            nl.store(out[r:r + 128, :], value=doubled(x))
    return out


@nki.jit
def inner_decides_late(a):
    """Iteration 0 of each inner loop writes the zeros of a PSUM tile the outer iteration made (a record the later
    inner iterations do not have): the inner loops decide after iterations 1, 2 and 3, so the outer loop describes
    their iteration 0 itself (replicate._agreed_spans)."""
    n = a.shape[0] // 2048
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        bias = nl.zeros((128, 64), dtype=nl.float32, buffer=nl.psum)
        for j in nl.affine_range(16):
            r = (k * 16 + j) * 128
            x = nl.load(a[r:r + 128, :])
            nl.store(out[r:r + 128, :], value=nl.add(x, bias))
    return out


@nki.jit
def inner_result_kept_after(a):
    """The inner loop's last result, a temporary, is assigned into a tile after the loop (ops.retarget rewrites
    the inner loop's last record): the outer loop describes inner loops' last iterations itself."""
    n = a.shape[0] // 2048
    out = nl.ndarray(a.shape, dtype=a.dtype, buffer=nl.shared_hbm)
    for k in nl.affine_range(n):
        keep = nl.ndarray((128, 64), dtype=a.dtype, buffer=nl.sbuf)
        for j in nl.affine_range(16):
            r = (k * 16 + j) * 128
            x = nl.load(a[r:r + 128, :])
            y = nl.multiply(x, 2.0)
            nl.store(out[r:r + 128, :], value=x)
        keep[...] = y
        nl.store(out[k * 128:k * 128 + 128, :], value=keep)
    return out
