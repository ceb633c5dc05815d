"""Current-API (nki 0.2-0.8) ISA calls written with keywords, each once, on small tiles."""
import nki
import nki.isa as nisa
import nki.language as nl


@nki.jit(mode="trace", additional_compile_opt="--example-option")
def isa_keywords(a: nl.ndarray, b: nl.ndarray, dtype: nki.dtype = nl.bfloat16) -> nl.ndarray:
    out = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.shared_hbm)
    x = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.sbuf)
    y = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_copy(dst=x, src=a)
    nisa.dma_copy(dst=y, src=b, dge_mode=nisa.dge_mode.hwdge)
    z = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.sbuf)
    nisa.memset(dst=z, value=0.0)
    nisa.tensor_tensor(dst=z, data1=x, data2=y, op=nl.add)
    nisa.scalar_tensor_tensor(dst=z, data=x, op0=nl.multiply, operand0=2.0, op1=nl.add, operand1=y)
    red = nl.ndarray((128, 1), dtype=nl.float32, buffer=nl.sbuf)
    nisa.tensor_scalar_reduce(dst=z, data=x, op0=nl.multiply, operand0=0.5, reduce_op=nl.add, reduce_res=red)
    nisa.activation(dst=z, op=nl.exp, data=z, bias=red, scale=1.0)
    top = nl.ndarray((128, 8), dtype=nl.float32, buffer=nl.sbuf)
    nisa.max8(dst=top, src=z)
    idx = nl.ndarray((128, 8), dtype=nl.uint32, buffer=nl.sbuf)
    nisa.nc_find_index8(dst=idx, data=z, vals=top)
    xb = nl.ndarray((128, 128), dtype=dtype, buffer=nl.sbuf)
    nisa.tensor_copy(dst=xb, src=x, engine=nisa.scalar_engine)
    xt = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_transpose(dst=xt, data=xb)
    acc = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.psum)
    nisa.nc_matmul(dst=acc, stationary=xb, moving=xb, accumulate=False)
    nisa.tensor_copy(dst=z, src=acc)
    w = nl.ndarray((128, 128), dtype=nl.float32, buffer=nl.sbuf)
    nisa.dma_transpose(dst=w, src=a)
    nisa.dma_copy(dst=out, src=z)
    return out
