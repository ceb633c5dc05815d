"""Helpers for the front-end tests: run the tracer as the application does (a subprocess)."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MAIN = os.path.join(ROOT, "sim", "frontend", "kltrace_main.py")
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


class Result:
    """Exit code, stdout, stderr and (on success) the IR text and parsed document of one trace."""

    def __init__(self, rc, out, err, text):
        self.rc = rc
        self.stdout = out
        self.stderr = err
        self.text = text
        self.ir = json.loads(text) if text else None
        self.error = json.loads(out)["error"] if rc != 0 and out.strip() else None


# How the application starts the front end (core/trace/TraceRunner.cpp): -S leaves out site-packages and
# dist-packages, so a system NumPy is not importable and the dtype-only stand-in is used.
APP_FLAGS = ("-E", "-s", "-S")


def run(*args, env=None, flags=()):
    """Trace in a subprocess. Without flags the interpreter sees the system NumPy if one is installed;
    flags=APP_FLAGS runs it as the application does; env={"KLTRACE_NUMPY_SHIM": "1"} forces the stand-in."""
    with tempfile.TemporaryDirectory() as tmp:
        out_path = os.path.join(tmp, "ir.json")
        full_env = dict(os.environ)
        full_env.update(env or {})
        proc = subprocess.run([PYTHON, *flags, MAIN, *args, "-o", out_path], capture_output=True, text=True,
                              env=full_env, timeout=120)
        text = None
        if proc.returncode == 0:
            with open(out_path, encoding="utf-8") as fh:
                text = fh.read()
        return Result(proc.returncode, proc.stdout, proc.stderr, text)


def trace_with_both_mains(kernel_text, other_main_text, args):
    """Traces `kernel_text` (written as kernel.py) with `args` by the front end's own main and by
    `other_main_text` (a main that turns a fast path off; `{frontend}` in it is the front end's folder): a
    (rc, stdout, stderr, IR text or None) tuple for each, the front end's first."""
    with tempfile.TemporaryDirectory() as tmp:
        kernel = os.path.join(tmp, "kernel.py")
        with open(kernel, "w", encoding="utf-8") as fh:
            fh.write(kernel_text)
        other = os.path.join(tmp, "other_main.py")
        with open(other, "w", encoding="utf-8") as fh:
            fh.write(other_main_text.format(frontend=os.path.join(ROOT, "sim", "frontend")))
        outputs = []
        for main in (MAIN, other):
            out = os.path.join(tmp, "ir.json")
            if os.path.exists(out):
                os.remove(out)
            proc = subprocess.run([PYTHON, main, "--kernel-file", kernel, *args, "-o", out], capture_output=True,
                                  text=True, timeout=120)
            text = None
            if proc.returncode == 0:
                with open(out, encoding="utf-8") as fh:
                    text = fh.read()
            outputs.append((proc.returncode, proc.stdout, proc.stderr, text))
        return outputs


def good(name):
    return os.path.join(HERE, "good", name)


def ops(ir):
    return [i["op"] for i in ir["instructions"]]
