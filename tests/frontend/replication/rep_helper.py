"""A helper module beside adversarial.py: a generator over tile starts (its loop is in a file no instruction
is recorded from, so plain tracing never lists this file)."""
import neuronxcc.nki.language as nl


def tile_starts(n):
    for k in nl.affine_range(n):
        yield k * 128
