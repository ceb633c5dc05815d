"""Compat fixture: a helper module the kernel imports as mypkg.tiles."""
PARTITIONS = 128
