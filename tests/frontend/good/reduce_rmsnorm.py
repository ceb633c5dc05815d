"""RMS normalisation in 128-row bands with a masked last band; the per-row scale comes from nl.sum
without keepdims and multiplies the band as a [P, 1] operand."""
import neuronxcc.nki as nki
import neuronxcc.nki.language as nl


@nki.jit
def band_rmsnorm(act, gain):
    nrows, width = act.shape
    result = nl.ndarray((nrows, width), dtype=act.dtype, buffer=nl.shared_hbm)
    p = nl.arange(128)[:, None]
    f = nl.arange(width)[None, :]
    gain_row = nl.load(gain.reshape((1, width)))
    gain_all = gain_row.broadcast_to((128, width))
    for band in nl.affine_range((nrows + 127) // 128):
        live = band * 128 + p < nrows
        a_tile = nl.load(act[band * 128 + p, f], mask=live)
        sq = nl.square(a_tile)
        ss = nl.sum(sq, axis=[1])
        ms = ss / width
        rms_reciprocal = nl.rsqrt(ms)
        scaled = nl.multiply(a_tile, rms_reciprocal)
        scaled[...] = nl.multiply(scaled, gain_all, mask=live)
        nl.store(result[band * 128 + p, f], value=scaled, mask=live)
    return result
