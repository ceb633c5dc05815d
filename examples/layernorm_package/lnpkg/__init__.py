"""A LayerNorm kernel written as a small package, the way library kernels are organised today."""
