#!/usr/bin/env python3
"""Check KernelLens compat manifests against a local checkout of the corpus they describe.

Usage:
    check_manifests.py MANIFEST CHECKOUT [MANIFEST CHECKOUT ...]

For every manifest/checkout pair this verifies that
  * the manifest is valid JSON in format 1 (format, source, entries),
  * every entry's `file` exists in the checkout and defines `def KERNEL(...)`,
  * every arg and scalar name is a parameter of that def, no name is given twice,
    every parameter without a default value is supplied, and args follow the
    parameter order (a warning otherwise),
  * only the format-1 entry keys are used (kernellens-cli rejects any other key),
  * shapes are lists of 1 to 8 positive integers, dtypes and scalar values are strings,
    scalar values are Python expressions, `grid` is a list of 1 to 3 positive integers,
  * `package_root` (if present) is a directory of the checkout containing the file,
  * `shape_source` names an existing file and a line inside it.

Kernel files are parsed with `ast`. A file that does not parse as a whole (it happens
upstream) is checked through its `def KERNEL(...)` header alone, with a warning.

Standard library only. Exit status 0 when every manifest passes, 1 otherwise
(2 on a usage error).
"""

import ast
import json
import os
import re
import sys

ENTRY_KEYS = {"file", "kernel", "args", "scalars", "grid", "package_root", "hw", "shape_source", "note"}
REQUIRED_KEYS = {"file", "kernel", "args"}


class Report:
    def __init__(self, manifest):
        self.manifest = manifest
        self.errors = 0
        self.warnings = 0

    def error(self, where, msg):
        self.errors += 1
        print(f"ERROR   {self.manifest}: {where}: {msg}")

    def warn(self, where, msg):
        self.warnings += 1
        print(f"warning {self.manifest}: {where}: {msg}")


def find_function(path, name):
    """Return (FunctionDef node or None, parsed_whole_file: bool, parse_error or None)."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        # Fall back to the def header: from "def NAME(" to the first line that closes the signature.
        m = re.search(r"^([ \t]*)(?:async[ \t]+)?def[ \t]+%s[ \t]*\(" % re.escape(name), source, re.M)
        if not m:
            return None, False, exc
        lines = source[m.start():].splitlines()
        indent = len(m.group(1))
        header = []
        for line in lines:
            header.append(line[indent:] if line[:indent].strip() == "" else line)
            candidate = "\n".join(header) + "\n    pass\n"
            try:
                sub = ast.parse(candidate)
            except SyntaxError:
                continue
            fn = sub.body[0] if sub.body and isinstance(sub.body[0], (ast.FunctionDef, ast.AsyncFunctionDef)) else None
            if fn is not None:
                fn.lineno = source[: m.start()].count("\n") + 1
                return fn, False, exc
        return None, False, exc
    found = [
        n
        for n in ast.walk(tree)
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == name
    ]
    # Prefer a module-level definition.
    top = [n for n in tree.body if n in found]
    return (top or found or [None])[0], True, None


def parameters(fn):
    """Return (ordered names, set of names without defaults, has *args, has **kwargs)."""
    a = fn.args
    positional = a.posonlyargs + a.args
    n_no_default = len(positional) - len(a.defaults)
    names = [p.arg for p in positional] + [p.arg for p in a.kwonlyargs]
    required = {p.arg for p in positional[:n_no_default]}
    required |= {p.arg for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is None}
    return names, required, a.vararg is not None, a.kwarg is not None


def is_pos_int_list(v):
    return isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in v)


def check_entry(rep, root, i, e):
    where = f"entry {i}"
    if not isinstance(e, dict):
        rep.error(where, "entry is not an object")
        return
    if "kernel" in e and "file" in e:
        where = f"entry {i} ({e['file']}::{e['kernel']})"
    for k in REQUIRED_KEYS - e.keys():
        rep.error(where, f"missing key '{k}'")
    for k in sorted(e.keys() - ENTRY_KEYS):
        rep.error(where, f"unknown key '{k}' (kernellens-cli rejects keys outside {', '.join(sorted(ENTRY_KEYS))})")
    if not REQUIRED_KEYS <= e.keys():
        return

    rel = e["file"]
    if not isinstance(rel, str) or os.path.isabs(rel):
        rep.error(where, "'file' must be a path relative to the checkout root")
        return
    path = os.path.join(root, rel)
    if not os.path.isfile(path):
        rep.error(where, f"file not found in checkout: {rel}")
        return

    # package_root: a directory of the checkout that contains the kernel file.
    pkg = e.get("package_root")
    if pkg is not None:
        pkg_path = os.path.normpath(os.path.join(root, pkg))
        if not os.path.isdir(pkg_path):
            rep.error(where, f"package_root is not a directory: {pkg}")
        elif not os.path.normpath(path).startswith(pkg_path + os.sep):
            rep.error(where, f"package_root {pkg} does not contain {rel}")

    fn, whole, perr = find_function(path, e["kernel"])
    if perr is not None:
        rep.warn(where, f"{rel} does not parse as a whole ({perr.msg}, line {perr.lineno}); checked the def header only")
    if fn is None:
        rep.error(where, f"no 'def {e['kernel']}' in {rel}")
        return
    names, required, has_varargs, has_kwargs = parameters(fn)

    given = []
    args = e["args"]
    if not isinstance(args, list):
        rep.error(where, "'args' must be a list")
        args = []
    for j, a in enumerate(args):
        if not isinstance(a, dict) or not {"name", "shape", "dtype"} <= a.keys():
            rep.error(where, f"args[{j}] needs name, shape and dtype")
            continue
        if not is_pos_int_list(a["shape"]) or not 1 <= len(a["shape"]) <= 8:
            rep.error(where, f"arg '{a['name']}': shape must be a list of 1 to 8 positive integers, got {a['shape']!r}")
        if not isinstance(a["dtype"], str) or not re.fullmatch(r"[a-z][a-z0-9_]*", a["dtype"]):
            rep.error(where, f"arg '{a['name']}': dtype must be a plain name, got {a['dtype']!r}")
        given.append(a["name"])

    scalars = e.get("scalars", {})
    if not isinstance(scalars, dict):
        rep.error(where, "'scalars' must be an object")
        scalars = {}
    for k, v in scalars.items():
        if not isinstance(v, str):
            rep.error(where, f"scalar '{k}': value must be a string of Python source, got {v!r}")
            continue
        try:
            ast.parse(v, mode="eval")
        except SyntaxError as exc:
            rep.error(where, f"scalar '{k}': {v!r} is not a Python expression ({exc.msg})")
        given.append(k)

    order = [names.index(a["name"]) for a in args if isinstance(a, dict) and a.get("name") in names]
    if order != sorted(order):
        rep.warn(where, "args are not in the kernel's parameter (call) order")

    seen = set()
    for name in given:
        if name in seen:
            rep.error(where, f"parameter '{name}' given more than once")
        seen.add(name)
        if name not in names and not has_kwargs:
            rep.error(where, f"'{name}' is not a parameter of {e['kernel']} (parameters: {', '.join(names)})")
    missing = sorted(required - seen)
    if missing:
        rep.error(where, f"required parameter(s) not supplied: {', '.join(missing)}")

    if "grid" in e and not (is_pos_int_list(e["grid"]) and 1 <= len(e["grid"]) <= 3):
        rep.error(where, f"grid must be a list of 1 to 3 positive integers, got {e['grid']!r}")
    if "hw" in e and not isinstance(e["hw"], str):
        rep.error(where, "hw must be a string")

    src = e.get("shape_source")
    if src is not None:
        m = re.fullmatch(r"(.+):(\d+)", src) if isinstance(src, str) else None
        if not m:
            rep.error(where, f"shape_source must be 'path:line', got {src!r}")
        else:
            spath = os.path.join(root, m.group(1))
            if not os.path.isfile(spath):
                rep.error(where, f"shape_source file not found: {m.group(1)}")
            else:
                with open(spath, encoding="utf-8", errors="replace") as f:
                    n_lines = sum(1 for _ in f)
                line = int(m.group(2))
                if not 1 <= line <= n_lines:
                    rep.error(where, f"shape_source line {line} outside 1..{n_lines}")
    # Two entries are duplicates only if they describe the very same launch.
    return (rel, e["kernel"], json.dumps(e["args"], sort_keys=True), json.dumps(scalars, sort_keys=True),
            json.dumps(e.get("grid")))


def check_manifest(manifest, root):
    rep = Report(manifest)
    try:
        with open(manifest, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as exc:
        rep.error("manifest", f"cannot read JSON: {exc}")
        return rep, 0
    if not os.path.isdir(root):
        rep.error("checkout", f"not a directory: {root}")
        return rep, 0
    if not isinstance(data, dict):
        rep.error("manifest", "top level must be an object")
        return rep, 0
    if data.get("format") != 1:
        rep.error("manifest", f"format must be 1, got {data.get('format')!r}")
    if not isinstance(data.get("source"), str):
        rep.error("manifest", "missing 'source' string")
    entries = data.get("entries")
    if not isinstance(entries, list):
        rep.error("manifest", "'entries' must be a list")
        return rep, 0
    keys = {}
    for i, e in enumerate(entries):
        key = check_entry(rep, root, i, e)
        if key:
            if key in keys:
                rep.warn(f"entry {i}", f"{key[0]}::{key[1]} duplicates entry {keys[key]} (same args, scalars and grid)")
            keys.setdefault(key, i)
    return rep, len(entries)


def main(argv):
    if len(argv) < 2 or len(argv) % 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    failed = False
    for manifest, root in zip(argv[0::2], argv[1::2]):
        rep, n = check_manifest(manifest, root)
        status = "OK" if rep.errors == 0 else "FAILED"
        print(f"{status:6}  {manifest}: {n} entries, {rep.errors} errors, {rep.warnings} warnings (checkout {root})")
        failed |= rep.errors > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
