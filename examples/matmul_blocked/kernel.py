"""Matrix multiplication blocked along the free dimensions (legacy NKI API).

result[M, N] = lhsT[K, M]^T @ rhs[K, N], bfloat16 in and out, float32 in PSUM.

M is cut into blocks of 2 x 128 rows and N into blocks of 2 x 512 columns. The
lhsT strips of one M block stay in SBUF for all N blocks, and the rhs strips of
one N block serve both row tiles of the M block, so each rhs byte fetched from
HBM now feeds two output tiles. The 2 x 2 output tiles of a block are
accumulated in separate PSUM tiles (four of the eight banks).
"""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def nki_matmul_blocked(lhsT, rhs):
    K, M = lhsT.shape
    K_rhs, N = rhs.shape
    assert K == K_rhs, "lhsT and rhs must share the contraction dimension K"

    TILE_K = nl.tile_size.pmax                  # 128
    TILE_M = nl.tile_size.gemm_stationary_fmax  # 128
    TILE_N = nl.tile_size.gemm_moving_fmax      # 512
    K_TILES = K // TILE_K

    # Blocking factors of the two free dimensions.
    TILES_IN_BLOCK_M = 2
    TILES_IN_BLOCK_N = 2
    BLOCK_M = TILE_M * TILES_IN_BLOCK_M  # 256
    BLOCK_N = TILE_N * TILES_IN_BLOCK_N  # 1024
    assert K % TILE_K == 0 and M % BLOCK_M == 0 and N % BLOCK_N == 0

    result = nl.ndarray((M, N), dtype=lhsT.dtype, buffer=nl.shared_hbm)

    i_l = nl.mgrid[0:TILE_K, 0:TILE_M]
    i_r = nl.mgrid[0:TILE_K, 0:TILE_N]
    i_o = nl.mgrid[0:TILE_M, 0:TILE_N]

    for mb in nl.affine_range(M // BLOCK_M):  # cuda: 26
        # lhsT strips of both row tiles of this M block (2 x 16 KiB per partition).
        lhsT_block = nl.ndarray((TILES_IN_BLOCK_M, K_TILES, nl.par_dim(TILE_K), TILE_M),
                                dtype=lhsT.dtype, buffer=nl.sbuf)
        for bm in nl.affine_range(TILES_IN_BLOCK_M):
            for k in nl.affine_range(K_TILES):
                lhsT_block[bm, k, i_l.p, i_l.x] = nl.load(  # cuda: 33-34
                    lhsT[k * TILE_K + i_l.p,
                         (mb * TILES_IN_BLOCK_M + bm) * TILE_M + i_l.x])

        for nb in nl.affine_range(N // BLOCK_N):  # cuda: 27
            # rhs strips of both column tiles of this N block (2 x 64 KiB per partition).
            rhs_block = nl.ndarray((TILES_IN_BLOCK_N, K_TILES, nl.par_dim(TILE_K), TILE_N),
                                   dtype=rhs.dtype, buffer=nl.sbuf)
            for bn in nl.affine_range(TILES_IN_BLOCK_N):
                for k in nl.affine_range(K_TILES):
                    rhs_block[bn, k, i_r.p, i_r.x] = nl.load(  # cuda: 35-36
                        rhs[k * TILE_K + i_r.p,
                            (nb * TILES_IN_BLOCK_N + bn) * TILE_N + i_r.x])

            for bm in nl.affine_range(TILES_IN_BLOCK_M):  # cuda: 28
                for bn in nl.affine_range(TILES_IN_BLOCK_N):  # cuda: 29
                    acc = nl.zeros((TILE_M, TILE_N), dtype=nl.float32, buffer=nl.psum)  # cuda: 31
                    # cuda: 39-52
                    for k in nl.affine_range(K_TILES):
                        acc += nl.matmul(lhsT_block[bm, k, i_l.p, i_l.x],
                                         rhs_block[bn, k, i_r.p, i_r.x],
                                         transpose_x=True)

                    out_tile = nl.copy(acc, dtype=result.dtype)  # cuda: 56-62
                    nl.store(result[(mb * TILES_IN_BLOCK_M + bm) * TILE_M + i_o.p,  # cuda: 56-62
                                    (nb * TILES_IN_BLOCK_N + bn) * TILE_N + i_o.x],
                             value=out_tile)

    return result
