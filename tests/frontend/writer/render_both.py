"""Traces one task in this interpreter and renders its binary IR four ways: the writer as the front end runs
it (replicated iterations as blocks), the same without ircolumns (compiled blocks), with no blocks (record by
record) and the reference writer. Prints one JSON line: instruction count, how many of them were made as objects
while tracing (traced: how many were traced, the others written from templates), blocks written, the levels of
nested blocks, whether the bytes agree, and their hash.

  render_both.py (--task DIR | --kernel-file FILE --kernel NAME) [--arg NAME=SHAPE:DTYPE ...]
"""
import argparse
import hashlib
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "sim", "frontend"))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True

from kltrace import cli, irbin, irblock, ircolumns, replay, replicate, runner  # noqa: E402
from kltrace.tracer import T  # noqa: E402

import reference_irbin  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--task")
    p.add_argument("--kernel-file")
    p.add_argument("--kernel")
    p.add_argument("--arg", action="append")
    flags = p.parse_args()
    spec = cli.build_spec(argparse.Namespace(task=flags.task and os.path.abspath(flags.task), kernel=flags.kernel,
                                             kernel_file=flags.kernel_file and os.path.abspath(flags.kernel_file),
                                             arg=flags.arg, grid=None, scalar=None))
    spec.kernel_file = os.path.abspath(spec.kernel_file)
    spec.base_dir = spec.base_dir and os.path.abspath(spec.base_dir)
    spec.binary = True
    runner.prepare_imports()
    captured = []
    render = irbin.render
    irbin.render = lambda *args: captured.append(args) or b""
    runner.trace(spec)
    written = []
    write = irblock.write
    irblock.write = lambda *args: written.append(write(*args)) or written[-1]
    fast = render(*captured[0])
    irblock.write = write
    # The same blocks without ircolumns (the compiled irblock path, or record by record from objects).
    columns = ircolumns.write
    ircolumns.write = lambda *args: False
    compiled = render(*captured[0])
    ircolumns.write = columns
    blocks = T.blocks
    objects = len(T.instrs)  # instructions made as objects while tracing (not the replicated ones)
    replay.materialize(T)  # the replicated iterations as objects, as plain tracing makes them
    plain = render(*captured[0])
    ref = reference_irbin.render(*captured[0])
    print(json.dumps({"instructions": len(T.instrs), "objects": objects, "blocks": len(blocks),
                      "nested": replicate.STATS["nested"], "traced": len(T.instrs) - replicate.STATS["records"],
                      "nesting": max(map(_nesting, blocks), default=0),
                      "blocks_written": sum(bool(w) for w in written), "same_as_records": fast == plain,
                      "same_as_reference": fast == ref, "same_as_compiled": compiled == fast, "sha256": hashlib.sha256(fast).hexdigest()}))


def _nesting(blk):
    """The levels of blocks in a block: 1 without inner blocks (replay.Block.inner)."""
    return 1 + max(map(_nesting, blk.inner), default=0)


if __name__ == "__main__":
    main()
