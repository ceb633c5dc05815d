"""nki.compiler directives and direct allocation, nki.lnc calls, nl.device_print, and the Trainium3 MX
matmul with its packed dtypes (nki 0.3+)."""
import nki
import nki.compiler as ncc
import nki.isa as nisa
import nki.language as nl

sb_mod = nki.compiler.sbuf.mod_alloc   # module level, as performance kernels write it
psum_mod = ncc.psum.mod_alloc


@nki.compiler.skip_middle_end_transformations
@nki.jit(additional_compile_opt="--internal-example")
def compiler_lnc_mx(a, sa, b, sb):
    out = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.shared_hbm)
    st = nl.ndarray((128, 128), dtype=nl.float8_e4m3fn_x4, buffer=sb_mod(base_addr=0, num_free_tiles=(1,)))
    mv = nl.ndarray((128, 128), dtype=nl.float8_e4m3fn_x4, buffer=nl.sbuf)
    st_scale = nl.ndarray((128, 4), dtype=nl.uint8, buffer=nl.sbuf)
    mv_scale = nl.ndarray((128, 4), dtype=nl.uint8, buffer=nl.sbuf)
    nisa.dma_copy(dst=st, src=a)
    nisa.dma_copy(dst=mv, src=b)
    nisa.dma_copy(dst=st_scale, src=sa)
    nisa.dma_copy(dst=mv_scale, src=sb)
    acc = nl.ndarray((128, 128), dtype=nl.float32, buffer=psum_mod(base_bank=0, num_bank_tiles=(1,)))
    nisa.nc_matmul_mx(dst=acc, stationary=st, moving=mv, stationary_scale=st_scale, moving_scale=mv_scale)
    res = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.sbuf)
    for i in nl.sequential_range(1, directives=ncc.no_reorder()):
        nisa.tensor_copy(dst=res, src=acc)
    nl.device_print("res", res)
    nki.lnc.core_barrier(res, (0, 1))
    if nisa.get_nc_version() >= nisa.nc_version.gen4:
        nisa.dma_copy(dst=out, src=res)
    return out
