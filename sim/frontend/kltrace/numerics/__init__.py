"""Value execution (--numerics): the kernel's instructions on real data with Trainium arithmetic, compared
with a float64 reference and an emulation of the CUDA kernel's accumulation. See docs/numerics.md."""
