"""Matrix multiplication blocked on all three dimensions (legacy NKI API).

result[M, N] = lhsT[K, M]^T @ rhs[K, N], bfloat16 in and out.

Blocks: BLOCK_M = 16 x 128 rows, BLOCK_N = 2 x 512 columns, BLOCK_K = 8 x 128.
For one N block the partial results of every M row live in SBUF for the whole
K sweep. The K blocks run in order; for each, eight [128, BLOCK_N] rhs rows
(2 KiB per partition) and, per M block, eight [128, BLOCK_M] lhsT rows (4 KiB
per partition) are fetched with large DMAs. Each output tile then takes eight
back-to-back matmuls in PSUM and one VectorE add into its SBUF accumulator,
so TensorE is fed from SBUF almost without pause. At the end every
[128, BLOCK_N] result row is packed and written with a single DMA.

SBUF per partition: accumulators 64 KiB, rhs 16 KiB, lhsT 32 KiB.
"""
import neuronxcc.nki as nki
import neuronxcc.nki.isa as nisa
import neuronxcc.nki.language as nl


@nki.jit
def nki_matmul_optimized(lhsT, rhs,
                         TILES_IN_BLOCK_M=16,
                         TILES_IN_BLOCK_N=2,
                         TILES_IN_BLOCK_K=8):
    K, M = lhsT.shape
    K_rhs, N = rhs.shape
    assert K == K_rhs, "lhsT and rhs must share the contraction dimension K"

    TILE_K = nl.tile_size.pmax                  # 128
    TILE_M = nl.tile_size.gemm_stationary_fmax  # 128
    TILE_N = nl.tile_size.gemm_moving_fmax      # 512

    BLOCK_M = TILE_M * TILES_IN_BLOCK_M  # 2048
    BLOCK_N = TILE_N * TILES_IN_BLOCK_N  # 1024
    BLOCK_K = TILE_K * TILES_IN_BLOCK_K  # 1024
    assert M % BLOCK_M == 0 and N % BLOCK_N == 0 and K % BLOCK_K == 0
    NUM_BLOCK_M = M // BLOCK_M
    NUM_BLOCK_N = N // BLOCK_N
    NUM_BLOCK_K = K // BLOCK_K

    result = nl.ndarray((M, N), dtype=lhsT.dtype, buffer=nl.shared_hbm)

    for nb in nl.affine_range(NUM_BLOCK_N):  # cuda: 30
        # SBUF accumulators for every output tile of this N block, zeroed once.
        acc_sb = nl.zeros((NUM_BLOCK_M, TILES_IN_BLOCK_M, TILES_IN_BLOCK_N,  # cuda: 51
                           nl.par_dim(TILE_M), TILE_N),
                          dtype=lhsT.dtype, buffer=nl.sbuf)

        # The K blocks update the same accumulators, so they run in order.
        # cuda: 57-82
        for kb in nl.sequential_range(NUM_BLOCK_K):
            # rhs rows of this K block: TILE_K x BLOCK_N per DMA.
            i_rhs = nl.mgrid[0:TILE_K, 0:BLOCK_N]
            rhs_rows = nl.ndarray((TILES_IN_BLOCK_K, nl.par_dim(TILE_K), BLOCK_N),
                                  dtype=rhs.dtype, buffer=nl.sbuf)
            for bk in nl.affine_range(TILES_IN_BLOCK_K):
                rhs_rows[bk, i_rhs.p, i_rhs.x] = nl.load(  # cuda: 37-40
                    rhs[(kb * TILES_IN_BLOCK_K + bk) * TILE_K + i_rhs.p,
                        nb * BLOCK_N + i_rhs.x])

            for mb in nl.affine_range(NUM_BLOCK_M):  # cuda: 29
                # lhsT rows of this (K block, M block): TILE_K x BLOCK_M per DMA.
                i_lhs = nl.mgrid[0:TILE_K, 0:BLOCK_M]
                lhsT_rows = nl.ndarray((TILES_IN_BLOCK_K, nl.par_dim(TILE_K), BLOCK_M),
                                       dtype=lhsT.dtype, buffer=nl.sbuf)
                for bk in nl.affine_range(TILES_IN_BLOCK_K):
                    lhsT_rows[bk, i_lhs.p, i_lhs.x] = nl.load(  # cuda: 37-40
                        lhsT[(kb * TILES_IN_BLOCK_K + bk) * TILE_K + i_lhs.p,
                             mb * BLOCK_M + i_lhs.x])

                i_st = nl.mgrid[0:TILE_K, 0:TILE_M]
                i_mv = nl.mgrid[0:TILE_K, 0:TILE_N]
                i_acc = nl.mgrid[0:TILE_M, 0:TILE_N]
                for bn in nl.affine_range(TILES_IN_BLOCK_N):
                    for bm in nl.affine_range(TILES_IN_BLOCK_M):
                        part = nl.zeros((TILE_M, TILE_N), dtype=nl.float32, buffer=nl.psum)
                        # cuda: 62-75
                        for bk in nl.affine_range(TILES_IN_BLOCK_K):
                            part[...] += nisa.nc_matmul(
                                lhsT_rows[bk, i_st.p, bm * TILE_M + i_st.x],
                                rhs_rows[bk, i_mv.p, bn * TILE_N + i_mv.x])

                        # Fold this K block's partial sum into the SBUF accumulator.
                        acc_sb[mb, bm, bn, i_acc.p, i_acc.x] += part[i_acc.p, i_acc.x]  # cuda: 74

        # Pack each row of output tiles and write it with one DMA.
        # cuda: 84-90
        for mb in nl.affine_range(NUM_BLOCK_M):
            for bm in nl.affine_range(TILES_IN_BLOCK_M):
                i_tile = nl.mgrid[0:TILE_M, 0:TILE_N]
                i_row = nl.mgrid[0:TILE_M, 0:BLOCK_N]
                packed = nl.ndarray((TILE_M, BLOCK_N), dtype=acc_sb.dtype, buffer=nl.sbuf)
                for bn in nl.affine_range(TILES_IN_BLOCK_N):
                    packed[i_tile.p, bn * TILE_N + i_tile.x] = nl.copy(
                        acc_sb[mb, bm, bn, i_tile.p, i_tile.x])
                nl.store(result[(mb * TILES_IN_BLOCK_M + bm) * TILE_M + i_row.p,
                                nb * BLOCK_N + i_row.x],
                         value=packed[i_row.p, i_row.x])

    return result
