"""Tiled matrix multiplication, basic version (legacy NKI API).

result[M, N] = lhsT[K, M]^T @ rhs[K, N]: bfloat16 operands and result, float32
accumulation in PSUM. The left operand is handed over already transposed, so the
contraction dimension K lies on the partitions of both operands, which is the
layout TensorE contracts over.

Scheme: one PSUM accumulator per [128, 512] output tile; for every step of 128
along K a [128, 128] slice of lhsT and a [128, 512] slice of rhs are loaded and
multiplied into it. Nothing is reused between output tiles, so both operands are
streamed from HBM again and again and DMA, not TensorE, sets the pace.
"""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def nki_matmul_basic_tiled(lhsT, rhs):
    K, M = lhsT.shape
    K_rhs, N = rhs.shape
    assert K == K_rhs, "lhsT and rhs must share the contraction dimension K"

    TILE_K = nl.tile_size.pmax                  # 128: contraction per matmul
    TILE_M = nl.tile_size.gemm_stationary_fmax  # 128: stationary (lhsT) free size
    TILE_N = nl.tile_size.gemm_moving_fmax      # 512: moving (rhs) free size
    assert K % TILE_K == 0, f"K={K} is not a multiple of {TILE_K}"
    assert M % TILE_M == 0, f"M={M} is not a multiple of {TILE_M}"
    assert N % TILE_N == 0, f"N={N} is not a multiple of {TILE_N}"

    result = nl.ndarray((M, N), dtype=lhsT.dtype, buffer=nl.shared_hbm)

    for m in nl.affine_range(M // TILE_M):  # cuda: 21
        for n in nl.affine_range(N // TILE_N):  # cuda: 22
            # One PSUM bank: 128 partitions x 512 float32.
            acc = nl.zeros((TILE_M, TILE_N), dtype=nl.float32, buffer=nl.psum)  # cuda: 24

            # cuda: 25-34
            for k in nl.affine_range(K // TILE_K):
                lhsT_tile = nl.load(lhsT[k * TILE_K:(k + 1) * TILE_K,  # cuda: 26
                                         m * TILE_M:(m + 1) * TILE_M])
                rhs_tile = nl.load(rhs[k * TILE_K:(k + 1) * TILE_K,  # cuda: 27
                                       n * TILE_N:(n + 1) * TILE_N])

                # TensorE adds the partial product into the PSUM tile.
                acc += nl.matmul(lhsT_tile, rhs_tile, transpose_x=True)  # cuda: 30-32

            # PSUM -> SBUF with the cast to bfloat16, then SBUF -> HBM.
            out_tile = nl.copy(acc, dtype=result.dtype)  # cuda: 36
            nl.store(result[m * TILE_M:(m + 1) * TILE_M,  # cuda: 36
                            n * TILE_N:(n + 1) * TILE_N], value=out_tile)

    return result
