#!/usr/bin/env python3
"""Entry point of the NKI front end: trace a kernel into Kernel IR JSON (see docs/kernel-ir.md)."""
import os
import sys

sys.dont_write_bytecode = True  # tracing must never write into task folders
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from kltrace.cli import main  # noqa: E402

if __name__ == "__main__":
    status = main()
    # Skip the interpreter's teardown: freeing a large trace object by object takes a noticeable share
    # of the run. Everything is written and closed by now; only the standard streams need a flush.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
