"""Value mode end to end, after the trace: inputs, both machines, reference, GPU emulation, metrics, and the
one JSON document of the contract (docs/numerics.md, "Output document")."""
import json
import math
import os
import time

import numpy as np

from . import execute, fmt, gpu, inputs, metrics, reference
from ..errors import TraceError
from ..tracer import T
from ..views import Tensor

_HERE = os.path.dirname(os.path.abspath(__file__))
# resources/numerics/tolerances.json is the canonical table; the sandbox mounts only sim/frontend, so the front
# end carries a copy beside this file (tests/frontend/test_numerics.py keeps the two identical).
TOLERANCE_FILES = (os.path.join(_HERE, "..", "..", "..", "..", "resources", "numerics", "tolerances.json"),
                   os.path.join(_HERE, "tolerances.json"))


class Options:
    """What a numerics run uses; flags override task.json's fields (cli.numerics_options)."""

    def __init__(self):
        self.reference = ""
        self.cuda_numerics = "none"
        self.inputs = "normal"
        self.seed = 0
        self.tolerance = "default"
        self.rtol = None
        self.atol = None
        self.base = "."
        self.rounding = "nearest"  # or "stochastic" (seeded with seed)
        self.values_out = None  # developer/test flag --values-out FILE.npz: the compared arrays themselves


def load_standards():
    for path in TOLERANCE_FILES:
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as fh:
                return json.load(fh)["standards"]
    raise TraceError("not_found", "resources/numerics/tolerances.json is missing", "reinstall KernelLens")


def tolerance(opts):
    standards = load_standards()
    std = standards.get(opts.tolerance)
    if std is None:
        raise TraceError("invalid_argument", f"unknown tolerance standard '{opts.tolerance}'",
                         "standards: " + ", ".join(sorted(standards)))
    overridden = opts.rtol is not None or opts.atol is not None

    def for_dtype(dtype):
        d = std["dtypes"].get(dtype) or std["dtypes"].get("float32")
        rtol = d["rtol"] if opts.rtol is None else opts.rtol
        atol = d["atol"] if opts.atol is None else opts.atol
        return float(rtol), float(atol)
    return {"standard": opts.tolerance, "source": std.get("source", ""), "overridden": overridden}, for_dtype


def kernel_outputs(spec):
    """(name, buffer) of every output: the returned HBM tensors in order, then written tensor arguments."""
    seen, out = set(), []
    stack = [T.result]
    while stack:
        r = stack.pop(0)
        if isinstance(r, Tensor):
            if r.buf.memory == "hbm" and id(r.buf) not in seen:
                seen.add(id(r.buf))
                out.append((r.buf.name, r.buf))
        elif isinstance(r, (tuple, list)):
            stack[0:0] = list(r)
        elif isinstance(r, dict):
            stack[0:0] = list(r.values())
    for buf, (name, _, _) in zip(T.arg_bufs, spec.args):
        if buf.role == "output" and id(buf) not in seen:
            seen.add(id(buf))
            out.append((name, buf))
    return out


def _whole(machine, buf):
    n = int(np.prod(buf.shape)) if buf.shape else 1
    return machine.storage(buf)[:n].reshape(buf.shape).copy()


def _inputs(spec, opts):
    kind = opts.inputs
    if kind.endswith(".npy") or kind.endswith(".npz"):
        path = kind if os.path.isabs(kind) else os.path.join(opts.base, kind)
        return inputs.load(path, spec.args), {"kind": "file", "seed": opts.seed, "file": os.path.basename(kind)}
    return inputs.generate(spec.args, kind, opts.seed), {"kind": kind, "seed": opts.seed, "file": ""}


def _execute(spec, arrays, opts):
    """Both machines over the whole trace: (hardware machine, shadow machine, top instructions, ms)."""
    started = time.perf_counter()
    hw, shadow = execute.machines(opts.seed if opts.rounding == "stochastic" else None)
    for buf, (name, _, _) in zip(T.arg_bufs, spec.args):
        hw.set_buffer(buf, arrays[name])
        shadow.set_buffer(buf, arrays[name])
    top = execute.run(T.instrs, T.files, hw, shadow)
    return hw, shadow, top, (time.perf_counter() - started) * 1000.0


def _references(opts, arrays, names, policy, warnings):
    """(exact outputs or None, GPU-emulated outputs or None, (file shown, line) of the reference)."""
    if not opts.reference:
        warnings.append("no reference function: 'exact' is the kernel's own algorithm in float64 (shadow "
                        "execution), so only rounding errors are measured")
        if policy.name != "none":
            warnings.append("cuda_numerics needs a reference function to emulate; GPU comparisons are null")
        return None, None, (None, None)
    fn, path, shown = reference.load(opts.reference, opts.base)
    exact = reference.outputs(reference.call(fn, path, shown, dict(arrays), T.arg_scalars), names, shown)
    gpu_out = None
    if policy.name != "none":
        gpu_out = reference.outputs(reference.call(fn, path, shown, gpu.prepare(arrays, policy), T.arg_scalars),
                                    names, shown)
    return exact, gpu_out, (shown, fn.__code__.co_firstlineno)


def _output_doc(name, buf, value, path64, expected, gpu_arr, tol_for, where, warnings, saved):
    for label, arr in (("reference", expected), ("GPU emulation", gpu_arr)):
        if arr is not None and tuple(arr.shape) != tuple(buf.shape):
            raise TraceError("invalid_argument", f"the {label} returned '{name}' of shape {list(arr.shape)} but the "
                             f"kernel's output is {list(buf.shape)}", "return arrays of the output's shape",
                             file=where[0], line=where[1])
    rtol, atol = tol_for(buf.dtype)
    if gpu_arr is not None:  # the CUDA kernel stores its result in the output's dtype too (RNE)
        gpu_arr = fmt.to_dtype(gpu_arr, buf.dtype)
    comparisons = {
        "nki_vs_exact": metrics.compare(value, expected, buf.dtype, rtol, atol),
        "gpu_vs_exact": metrics.compare(gpu_arr, expected, buf.dtype, rtol, atol) if gpu_arr is not None else None,
        "nki_vs_gpu": metrics.compare(value, gpu_arr, buf.dtype, rtol, atol) if gpu_arr is not None else None,
        "nki_vs_shadow": metrics.compare(value, path64, buf.dtype, rtol, atol),
    }
    c = comparisons["nki_vs_exact"]
    if not c["passed"]:
        w = c["worst"][0]["index"] if c["worst"] else []
        warnings.append(f"output '{name}': {c['mismatches']} of {value.size} elements outside rtol {rtol:g} "
                        f"atol {atol:g} against the exact result (worst at {w})")
    if saved is not None:
        saved.update({f"{name}.nki": value, f"{name}.exact": expected, f"{name}.shadow": path64})
        if gpu_arr is not None:
            saved[f"{name}.gpu"] = gpu_arr
    return {"name": name, "dtype": buf.dtype, "shape": list(buf.shape), "comparisons": comparisons,
            "heatmap": metrics.heatmap(value, expected), "histogram": metrics.histogram(value, expected)}


def run(spec, opts, kernel_name, kernel_file):
    """The numerics document of the kernel just traced in value mode (T)."""
    warnings = []
    tol_info, tol_for = tolerance(opts)
    policy_name, policy_param, policy_text = gpu.parse_policy(opts.cuda_numerics)
    policy = gpu.Policy(policy_name, policy_param)
    if opts.reference:
        reference.load(opts.reference, opts.base)  # a bad reference fails before the long part
    arrays, input_info = _inputs(spec, opts)
    hw, shadow, top, value_ms = _execute(spec, arrays, opts)
    outs = kernel_outputs(spec)
    if not outs:
        raise TraceError("invalid_argument", f"{kernel_name} has no output to compare",
                         "return the output tensor (or write a tensor argument)")
    names = [n for n, _ in outs]
    execute.attribute(top, T.instrs, outs)
    exact, gpu_out, where = _references(opts, arrays, names, policy, warnings)
    saved = {} if opts.values_out else None
    docs = []
    for name, buf in outs:
        value, path64 = _whole(hw, buf), _whole(shadow, buf)
        docs.append(_output_doc(name, buf, value, path64, exact[name] if exact is not None else path64,
                                gpu_out[name] if gpu_out else None, tol_for, where, warnings, saved))
    if saved is not None:
        np.savez(opts.values_out, **saved)
    # the tracer's note that indirect rows are unknown holds for timing only: value mode reads the indices
    warnings.extend(d[1] for d in T.diagnostics if d[0] == "warning" and not d[1].startswith("an indirect access"))
    return {"format": "kernellens-numerics", "version": 1, "kernel": kernel_name, "kernel_file": kernel_file,
            "args": [{"name": n, "shape": list(s), "dtype": d} for n, s, d in spec.args],
            "inputs": input_info, "rounding": opts.rounding, "reference": opts.reference or "",
            "cuda_numerics": policy_text, "tolerance": tol_info, "instructions": len(T.instrs),
            "value_ms": round(value_ms, 3), "outputs": docs, "top_error_instructions": top, "warnings": warnings}


def _clean(x):
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "inf" if x > 0 else "-inf"
        return x
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_clean(v) for v in x]
    return x


def render(doc):
    """The document as JSON text; every non-finite float as the string "nan", "inf" or "-inf"."""
    return json.dumps(_clean(doc), allow_nan=False)
