"""x -> float8 (e4m3fn and e5m2) -> float32: what survives the cast."""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def fp8_cast(x):
    P, F = x.shape
    o1 = nl.ndarray((P, F), dtype=nl.float32, buffer=nl.shared_hbm)
    o2 = nl.ndarray((P, F), dtype=nl.float32, buffer=nl.shared_hbm)
    t = nl.load(x[0:P, 0:F])
    a = nl.copy(t, dtype=nl.float8_e4m3fn)
    b = nl.copy(t, dtype=nl.float8_e5m2)
    nl.store(o1[0:P, 0:F], value=nl.copy(a, dtype=nl.float32))
    nl.store(o2[0:P, 0:F], value=nl.copy(b, dtype=nl.float32))
    return o1, o2
