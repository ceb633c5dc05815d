#!/usr/bin/env python3
"""Regenerate the "Instruction costs" table of docs/simulator.md from the one op table (ops.def).

    scripts/gen_op_docs.py           print the table
    scripts/gen_op_docs.py --write   rewrite the table in docs/simulator.md
    scripts/gen_op_docs.py --check   exit 1 (with a diff) when the committed table differs

tests/frontend/test_optable.py runs the check, so an op added to ops.def without regenerating fails a test.
"""
import difflib
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOC = os.path.join(ROOT, "docs", "simulator.md")
HEADER = ("| op | cycles (engine) | parameters: trn1 / trn2 / trn3 | source | status |", "|---|---|---|---|---|")

sys.path.insert(0, os.path.join(ROOT, "sim", "frontend"))
from kltrace import optable  # noqa: E402  (after the path is set)


def table_lines():
    rows = [f"| `{r.name}` | {r.doc_cycles} | {r.doc_parameters} | {r.doc_source} | {r.doc_status} |"
            for r in optable.ROWS]
    return list(HEADER) + rows


def split_doc(lines):
    """(before, table, after): the table runs from its header to the first line not starting with '|'."""
    start = lines.index(HEADER[0])
    end = start
    while end < len(lines) and lines[end].startswith("|"):
        end += 1
    return lines[:start], lines[start:end], lines[end:]


def main(argv):
    with open(DOC, encoding="utf-8") as f:
        lines = f.read().split("\n")
    before, committed, after = split_doc(lines)
    generated = table_lines()
    if "--write" in argv:
        with open(DOC, "w", encoding="utf-8") as f:
            f.write("\n".join(before + generated + after))
        return 0
    if "--check" in argv:
        if committed == generated:
            return 0
        sys.stdout.writelines(difflib.unified_diff([x + "\n" for x in committed], [x + "\n" for x in generated],
                                                   "docs/simulator.md", "generated from ops.def"))
        print("run scripts/gen_op_docs.py --write", file=sys.stderr)
        return 1
    print("\n".join(generated))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
