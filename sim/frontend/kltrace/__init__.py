"""KernelLens NKI front end: runs an unmodified NKI kernel symbolically and records a Kernel IR."""
