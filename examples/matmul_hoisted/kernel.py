"""Tiled matrix multiplication with hoisted loads (legacy NKI API).

result[M, N] = lhsT[K, M]^T @ rhs[K, N], bfloat16 in and out, float32 in PSUM.

Compared with the basic version the loads leave the innermost loop: for each
block row m the whole K-strip of lhsT ([K, 128], 16 KiB per partition) is loaded
once and kept in SBUF while every n tile of the row uses it, and for each (m, n)
the K-strip of rhs is loaded in one sweep before the matmuls run back to back.
lhsT traffic drops by the number of n tiles; rhs is still streamed once per m.
"""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def nki_matmul_hoisted(lhsT, rhs):
    K, M = lhsT.shape
    K_rhs, N = rhs.shape
    assert K == K_rhs, "lhsT and rhs must share the contraction dimension K"

    TILE_K = nl.tile_size.pmax                  # 128
    TILE_M = nl.tile_size.gemm_stationary_fmax  # 128
    TILE_N = nl.tile_size.gemm_moving_fmax      # 512
    assert K % TILE_K == 0 and M % TILE_M == 0 and N % TILE_N == 0
    K_TILES = K // TILE_K

    result = nl.ndarray((M, N), dtype=lhsT.dtype, buffer=nl.shared_hbm)

    # Index grids of one lhsT tile, one rhs tile and one result tile.
    i_l = nl.mgrid[0:TILE_K, 0:TILE_M]
    i_r = nl.mgrid[0:TILE_K, 0:TILE_N]
    i_o = nl.mgrid[0:TILE_M, 0:TILE_N]

    for m in nl.affine_range(M // TILE_M):  # cuda: 24
        # The lhsT strip of this block row, loaded once and reused for every n.
        lhsT_strip = nl.ndarray((K_TILES, nl.par_dim(TILE_K), TILE_M),
                                dtype=lhsT.dtype, buffer=nl.sbuf)
        for k in nl.affine_range(K_TILES):
            lhsT_strip[k, i_l.p, i_l.x] = nl.load(  # cuda: 29
                lhsT[k * TILE_K + i_l.p, m * TILE_M + i_l.x])

        for n in nl.affine_range(N // TILE_N):  # cuda: 25
            rhs_strip = nl.ndarray((K_TILES, nl.par_dim(TILE_K), TILE_N),
                                   dtype=rhs.dtype, buffer=nl.sbuf)
            for k in nl.affine_range(K_TILES):
                rhs_strip[k, i_r.p, i_r.x] = nl.load(  # cuda: 30-32
                    rhs[k * TILE_K + i_r.p, n * TILE_N + i_r.x])

            acc = nl.zeros((TILE_M, TILE_N), dtype=nl.float32, buffer=nl.psum)  # cuda: 27
            # cuda: 35-41
            for k in nl.affine_range(K_TILES):
                acc += nl.matmul(lhsT_strip[k, i_l.p, i_l.x],
                                 rhs_strip[k, i_r.p, i_r.x],
                                 transpose_x=True)

            out_tile = nl.copy(acc, dtype=result.dtype)  # cuda: 45-47
            nl.store(result[m * TILE_M + i_o.p, n * TILE_N + i_o.x], value=out_tile)  # cuda: 45-47

    return result
