"""Command line of the front end: parse flags / task.json, sandbox, trace, write IR or one JSON error."""
import argparse
import json
import os
import sys

from . import dtypes, hwprofile, replay, sandbox
from .numerics import fields as numerics_fields
from .errors import TraceError
from .replicate import STATS
from .runner import KernelSpec, prepare_imports, trace
from .tracer import T

USAGE = ("kltrace_main.py (--task DIR | --kernel-file F.py [--kernel NAME]) [--package-root DIR] "
         "[--arg NAME=4096x8192:bfloat16 ...] [--grid N|AxB] [--lnc 1|2] [--scalar NAME=VALUE ...] [--target trn1|trn2|trn3] "
         "[--hw trn1|trn2|trn3|PROFILE.json] [--list-kernels] (-o OUT.json | --output-fd N) [--nonce-stdin] [--timeout S] [--memory-mb M] "
         "[--max-processes N] [--format json|binary] [--pretty] [--no-replicate] [--numerics [--reference FILE.py:FUNC] [--cuda-numerics POLICY] "
         "[--inputs normal|uniform|bf16-stress|fp8-stress|outliers|FILE.npy|FILE.npz] [--seed N] "
         "[--tolerance STANDARD] [--rtol X] [--atol Y] [--rounding nearest|stochastic]]")


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise TraceError("invalid_argument", f"bad command line: {message}", "usage: " + USAGE)


def parse_flags(argv):
    p = _Parser(prog="kltrace_main.py", usage=USAGE, add_help=True)
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--task")
    src.add_argument("--kernel-file")
    p.add_argument("--kernel")
    p.add_argument("--package-root")
    p.add_argument("--list-kernels", action="store_true", help="write the file's kernels and parameters as JSON")
    p.add_argument("--target", choices=("trn1", "trn2", "trn3"), help="answer nisa.get_nc_version() for this chip")
    p.add_argument("--hw", help="check tile sizes against this hardware profile (resources/hw) instead of "
                                f"{hwprofile.DEFAULT}'s")
    p.add_argument("--arg", action="append", default=None)
    p.add_argument("--grid")
    p.add_argument("--lnc", help="logical NeuronCore degree: 1 (default) or 2 (programs split over two cores)")
    p.add_argument("--scalar", action="append", default=None)
    out = p.add_mutually_exclusive_group(required=True)
    out.add_argument("-o", "--output")
    out.add_argument("--output-fd", type=int, help="write the result to this inherited descriptor (KernelLens)")
    p.add_argument("--nonce-stdin", action="store_true",
                   help="read the run's nonce from stdin and put it in the report (KernelLens)")
    p.add_argument("--timeout", type=float, default=120.0)
    p.add_argument("--memory-mb", type=int, default=4096)
    p.add_argument("--max-processes", type=int, default=0, help="RLIMIT_NPROC for the kernel (0: unchanged)")
    p.add_argument("--pretty", action="store_true", help="indent the IR (not byte-compatible with compact output)")
    p.add_argument("--format", choices=("json", "binary"), default="json",
                   help="the IR as JSON (an export) or in its compact binary form (what KernelLens reads)")
    p.add_argument("--numerics", action="store_true", help="execute on values; write the numerics document")
    p.add_argument("--no-replicate", action="store_true",
                   help="trace every loop iteration (no loop replication; the IR is the same either way)")
    p.add_argument("--reference")
    p.add_argument("--cuda-numerics")
    p.add_argument("--inputs")
    p.add_argument("--seed", type=int)
    p.add_argument("--tolerance")
    p.add_argument("--rtol", type=float)
    p.add_argument("--atol", type=float)
    p.add_argument("--rounding", choices=("nearest", "stochastic"),
                   help="engine results rounded to nearest even (default) or stochastically (seeded by --seed)")
    p.add_argument("--values-out", help=argparse.SUPPRESS)  # tests: the compared arrays as .npz
    flags = p.parse_args(argv)
    if not flags.numerics and any(getattr(flags, k) is not None for k in _NUMERIC_FLAGS):
        raise TraceError("invalid_argument", "--reference, --cuda-numerics, --inputs, --seed, --tolerance, --rtol "
                         "and --atol need --numerics", "usage: " + USAGE)
    for k in ("rtol", "atol"):
        v = getattr(flags, k)
        if v is not None and not (v >= 0 and v < float("inf")):
            raise TraceError("invalid_argument", f"--{k} must be a finite number >= 0", "usage: " + USAGE)
    if flags.seed is not None and not 0 <= flags.seed < 2 ** 63:
        raise TraceError("invalid_argument", "--seed must be a whole number from 0 to 2^63-1", "usage: " + USAGE)
    return flags


_NUMERIC_FLAGS = ("reference", "cuda_numerics", "inputs", "seed", "tolerance", "rtol", "atol", "values_out",
                  "rounding")


def parse_dtype(text, where):
    d = dtypes.normalize(text.strip())
    if d is None:
        raise TraceError("invalid_argument", f"unknown dtype '{text}' in {where}",
                         "dtypes: " + ", ".join(dtypes.SIZES))
    return d


def parse_arg(text):
    """NAME=4096x8192:bfloat16 -> (name, shape, dtype)."""
    try:
        name, rest = text.split("=", 1)
        shape_text, dtype_text = rest.rsplit(":", 1)
        shape = [int(s) for s in shape_text.lower().split("x")]
    except ValueError:
        raise TraceError("invalid_argument", f"bad --arg '{text}'", "expected NAME=4096x8192:bfloat16")
    if not name.isidentifier() or any(s <= 0 for s in shape):
        raise TraceError("invalid_argument", f"bad --arg '{text}'", "expected NAME=4096x8192:bfloat16")
    return name, shape, parse_dtype(dtype_text, f"--arg {text}")


def parse_lnc(text):
    if str(text).strip() not in ("1", "2"):
        raise TraceError("invalid_argument", f"bad --lnc '{text}'",
                         "the logical NeuronCore degree is 1 or 2 (Trainium2/3 pair two physical cores)")
    return int(text)


def lnc_grid(grid, lnc):
    """The launch grid with `lnc` cores: the first axis is split into `lnc` contiguous blocks, one per physical
    core (nl.spmd_dim(nl.nc(2), n)); a grid of one program becomes one program per core (kernel[2]).
    docs/simulator.md, "Logical NeuronCores"."""
    if lnc == 1:
        return grid
    if list(grid) == [1]:
        return [lnc]
    if grid[0] % lnc:
        raise TraceError("invalid_argument", f"--lnc {lnc} needs the first grid axis to split over {lnc} cores, "
                         f"but the grid is {'x'.join(map(str, grid))}",
                         f"make the first grid size a multiple of {lnc}, e.g. --grid {lnc} or --grid {2 * lnc}")
    return grid


def parse_grid(text):
    try:
        grid = [int(g) for g in str(text).lower().split("x")]
    except ValueError:
        raise TraceError("invalid_argument", f"bad --grid '{text}'", "expected N or AxB, e.g. --grid 4 or --grid 2x2")
    if not grid or len(grid) > 3 or any(g <= 0 for g in grid):
        raise TraceError("invalid_argument", f"bad --grid '{text}'", "expected N or AxB with positive sizes")
    return grid


def parse_scalar(text):
    """NAME=VALUE; VALUE stays text until the kernel's module is loaded (see arguments.resolve_value)."""
    if "=" not in text:
        raise TraceError("invalid_argument", f"bad --scalar '{text}'", "expected NAME=VALUE")
    name, value = text.split("=", 1)
    if not name.isidentifier():
        raise TraceError("invalid_argument", f"bad --scalar '{text}': '{name}' is not a parameter name",
                         "expected NAME=VALUE")
    if value in ("true", "false"):
        value = value.title()  # the command-line spelling of a bool
    return name, value


def read_task(folder):
    """task.json as a dict whose fields build_spec can use as they are: UTF-8 JSON, every field of the type
    docs/task-format.md gives and every number in range (the same limits as the application's reader), so a
    broken file is a message naming the field, never a traceback."""
    path = os.path.join(folder, "task.json")
    if not os.path.isfile(path):
        raise TraceError("not_found", f"no task.json in {folder}", "a task folder holds task.json and the kernel file")

    def bad(message, hint="see docs/task-format.md"):
        return TraceError("invalid_argument", f"task.json: {message}", hint, file="task.json")

    def refuse_constant(name):  # NaN, Infinity: not JSON numbers
        raise ValueError(f"{name} is not a JSON number")

    try:
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8")
        task = json.loads(text, parse_constant=refuse_constant)
    except UnicodeDecodeError as e:
        raise TraceError("parse", f"task.json is not UTF-8: byte 0x{e.object[e.start]:02x} at offset {e.start}",
                         "save task.json as UTF-8", file="task.json")
    except json.JSONDecodeError as e:
        raise TraceError("parse", f"task.json:{e.lineno}:{e.colno}: {e.msg}", "fix the JSON syntax",
                         file="task.json", line=e.lineno)
    except (ValueError, RecursionError) as e:
        raise TraceError("parse", f"task.json: {e}", "fix the JSON syntax", file="task.json")
    except OSError as e:
        raise TraceError("io", f"cannot read {path}: {e.strerror}")
    if not isinstance(task, dict) or task.get("format") != 1 or isinstance(task.get("format"), bool):
        raise TraceError("invalid_argument", "task.json: unsupported or missing \"format\" (expected 1)",
                         "see docs/task-format.md", file="task.json")
    for key in ("kernel_file", "kernel", "args"):
        if key not in task:
            raise bad(f"missing \"{key}\"")

    def whole(v, lo, hi):
        return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi

    for key in ("kernel_file", "kernel", "package_root", "hardware", "title", "description"):
        if key in task and task[key] is not None and not isinstance(task[key], str):
            raise bad(f"\"{key}\" must be a string, not {type(task[key]).__name__}")
    if not isinstance(task["args"], list) or len(task["args"]) > 256:
        raise bad("\"args\" must be a list of at most 256 {name, shape, dtype}")
    for i, a in enumerate(task["args"]):
        if not isinstance(a, dict) or not isinstance(a.get("name"), str) or not isinstance(a.get("dtype"), str):
            raise bad(f"args[{i}] needs \"name\" and \"dtype\" strings")
        shape = a.get("shape")
        if not isinstance(shape, list) or len(shape) > 8 or not all(whole(d, 0, 1 << 40) for d in shape):
            raise bad(f"args[{i}].shape must be a list of at most 8 whole numbers from 0 to 2^40")
    grid = task.get("grid", [1])
    if not isinstance(grid, list) or not 1 <= len(grid) <= 3 or not all(whole(g, 1, 1 << 16) for g in grid):
        raise bad("\"grid\" must be a list of 1 to 3 whole numbers from 1 to 65536")
    if "lnc" in task and not whole(task["lnc"], 1, 2):
        raise bad(f"\"lnc\" must be 1 or 2 (the logical NeuronCore degree), not {task['lnc']!r}")
    if "scalars" in task and not isinstance(task["scalars"], dict):
        raise bad("\"scalars\" must be an object of parameter name -> value")
    numerics_fields.check(task, bad, whole)
    return task


def build_spec(flags):
    args, grid, scalars, name, kernel_file, base = [], [1], {}, flags.kernel, flags.kernel_file, None
    lnc = 1
    if flags.task:
        task = read_task(flags.task)
        base = flags.task
        kernel_file = os.path.join(flags.task, task["kernel_file"])
        name = name or task["kernel"]
        try:
            args = [(a["name"], [int(s) for s in a["shape"]], parse_dtype(str(a["dtype"]), "task.json"))
                    for a in task["args"]]
        except (KeyError, TypeError, ValueError):
            raise TraceError("invalid_argument", "task.json: each arg needs name, shape and dtype",
                             "see docs/task-format.md", file="task.json")
        grid = [int(g) for g in task.get("grid", [1])]
        lnc = int(task.get("lnc", 1))
        scalars = dict(task.get("scalars", {}))
        if getattr(flags, "numerics", False):  # callers of build_spec (bench/) may pass a bare Namespace
            args, scalars = numerics_fields.value_args(task, args, scalars, parse_dtype)
        if task.get("package_root") and not flags.package_root:
            flags.package_root = os.path.join(flags.task, str(task["package_root"]))
    if flags.arg is not None:
        args = [parse_arg(a) for a in flags.arg]
    if flags.grid:
        grid = parse_grid(flags.grid)
    if getattr(flags, "lnc", None) is not None:
        lnc = parse_lnc(flags.lnc)
    grid = lnc_grid(grid, lnc)
    for s in flags.scalar or []:
        k, v = parse_scalar(s)
        scalars[k] = v
    spec = KernelSpec(kernel_file, name, args, grid, scalars, base, getattr(flags, "package_root", None))
    spec.lnc = lnc
    spec.task = task if flags.task else {}  # numerics_fields.options reads the numerics fields
    return spec


_REPORT = None  # the front end's own stdout: the one place its JSON error goes (see own_stdout)
_NONCE = None  # the run's nonce from KernelLens (--nonce-stdin): only reports carrying it are accepted


def own_stdout():
    """Keep the process's stdout for the front end's report and send everything else written to fd 1
    (a kernel's print, a library's logging) to stderr, where the application shows it as output. A
    kernel that prints JSON can then never be mistaken for the front end's error report."""
    global _REPORT
    if _REPORT is None:
        sys.stdout.flush()
        _REPORT = os.fdopen(os.dup(1), "w", encoding="utf-8")
        os.dup2(2, 1)
        sys.stdout = sys.stderr
    return _REPORT


def read_nonce():
    """Take the nonce from stdin, then leave stdin empty: kernel code must never see it."""
    global _NONCE
    _NONCE = sys.stdin.readline().strip()
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)


def _report(payload):
    if _NONCE is not None:
        payload = {"nonce": _NONCE, **payload}
    report = own_stdout()
    # The newline first: whatever a kernel left half-written on this channel cannot run into the report.
    report.write("\n" + json.dumps(payload, sort_keys=False) + "\n")
    report.flush()


def emit_error(err):
    if _NONCE is not None and err.code == "kernel_error" and _forbidden_by_sandbox(err.message):
        err.hint = ("the kernel did something the sandbox forbids: kernels run without network, new processes, "
                    "or files outside their own folder (read-only); they must only compute")
    _report({"error": {"code": err.code, "message": err.message, "file": err.file or "",
                       "line": err.line or 0, "hint": err.hint or ""}})
    where = f"{err.file}:{err.line}: " if err.file and err.line else (f"{err.file}: " if err.file else "")
    hint = f" (hint: {err.hint})" if err.hint else ""
    sys.stderr.write(f"kltrace: {err.code}: {where}{err.message}{hint}\n")
    sys.stderr.flush()


def _forbidden_by_sandbox(message):
    return any(text in message for text in ("PermissionError", "Operation not permitted", "Read-only file system"))


def write_output(flags, text):
    """The result goes to -o's file, or to the descriptor KernelLens opened for it. Returns its size in bytes.
    `text`: a string, bytes, or a list of bytes-like pieces (the binary IR, irbin.render_parts), written in turn."""
    parts = text if isinstance(text, list) else [text if isinstance(text, bytes) else text.encode("utf-8")]
    where = flags.output if flags.output_fd is None else f"descriptor {flags.output_fd}"
    try:
        if flags.output_fd is None:
            with open(os.path.abspath(flags.output), "wb") as fh:
                fh.writelines(parts)
        else:
            os.ftruncate(flags.output_fd, 0)
            os.lseek(flags.output_fd, 0, os.SEEK_SET)
            # Buffered: the record-by-record pieces are small; large ones go straight through.
            with open(flags.output_fd, "wb", closefd=False) as fh:
                fh.writelines(parts)
    except OSError as e:
        raise TraceError("io", f"cannot write the result to {where}: {e.strerror}",
                         "the result is larger than the output limit" if e.errno == 27 else "")
    return sum(map(len, parts))


def _numerics(flags, spec, kernel_name):
    """Value execution after the trace; returns the numerics document's text."""
    if spec.list_kernels:
        raise TraceError("invalid_argument", "--numerics and --list-kernels do not go together")
    try:
        import numpy
        real = hasattr(numpy, "lib") and hasattr(numpy, "frexp")
    except ImportError:
        real = False
    if not real:
        raise TraceError("unsupported", "value execution (--numerics) needs NumPy, which this Python lacks",
                         "install python3-numpy (Debian) for the interpreter KernelLens runs")
    from .numerics import run
    _phase[0] = "numerics"
    opts = numerics_fields.options(flags, spec)
    doc = run.run(spec, opts, kernel_name, T.files[0] if T.files else os.path.basename(spec.kernel_file))
    sys.stderr.write(f"kltrace: numerics: {doc['instructions']} instructions on values in {doc['value_ms']:.0f} ms\n")
    return run.render(doc) if not flags.pretty else json.dumps(json.loads(run.render(doc)), indent=1)


# What the run is doing when the alarm fires, so the hint names it (tracing, or value execution and the
# reference in --numerics mode).
_phase = ["tracing"]


def _on_timeout(timeout_s, workdir):
    def handler(frame):
        file, line = T.where(frame)
        at = f" at {file}:{line}" if file else ""
        if _phase[0] == "tracing":
            hint = "the kernel did not finish tracing: look for an endless loop or a huge trip count"
        else:
            hint = ("value execution did not finish: the kernel's values or the reference function ran too long; "
                    "give smaller shapes in task.json numerics.args or look for an endless loop in the reference")
        emit_error(TraceError("timeout", f"timed out after {timeout_s:g} s{at}", hint, file=file, line=line))
        workdir.leave()
        os._exit(2)  # not an exception: the kernel could swallow one
    return handler


def main(argv=None):
    workdir = None
    own_stdout()
    try:
        argv = sys.argv[1:] if argv is None else argv
        if "--nonce-stdin" in argv:  # before anything can fail, so that every report carries it
            read_nonce()
        flags = parse_flags(argv)
        if flags.output_fd is not None:
            os.set_inheritable(flags.output_fd, False)  # never handed on to anything the kernel runs
        if flags.output:
            flags.output = os.path.abspath(flags.output)  # before the front end moves into its private folder
        if flags.hw:
            hwprofile.select(flags.hw if flags.hw.isidentifier() else os.path.abspath(flags.hw))
            hwprofile.CHOSEN = True
        spec = build_spec(flags)
        if flags.inputs and flags.inputs.endswith((".npy", ".npz")):
            flags.inputs = os.path.abspath(flags.inputs)  # before the kernel's private working folder
        if flags.values_out:
            flags.values_out = os.path.abspath(flags.values_out)
        spec.list_kernels = flags.list_kernels
        spec.binary = flags.format == "binary" and not flags.list_kernels and not flags.numerics
        spec.parts = spec.binary  # written piece by piece (write_output), never joined into one copy
        T.nc_version = {"trn1": "gen2", "trn2": "gen3", "trn3": "gen4"}.get(flags.target)
        spec.kernel_file = os.path.abspath(spec.kernel_file)
        if spec.base_dir:
            spec.base_dir = os.path.abspath(spec.base_dir)
        if spec.package_root:
            spec.package_root = os.path.abspath(spec.package_root)
        prepare_imports()
        sandbox.block_network()
        workdir = sandbox.PrivateDir()
        workdir.enter()
        sandbox.set_limits(flags.timeout, flags.memory_mb, flags.max_processes)
        sandbox.arm_alarm(flags.timeout, _on_timeout(flags.timeout, workdir))
        T.values = flags.numerics
        if flags.no_replicate:
            T.replicate = False
        text = trace(spec)
        if flags.numerics:
            text = _numerics(flags, spec, text)
        sandbox.disarm_alarm()
        if flags.pretty and not flags.list_kernels and not flags.numerics and not spec.binary:
            text = json.dumps(json.loads(text), indent=1)
        size = write_output(flags, text)
        if not flags.list_kernels and not flags.numerics:
            target = f" -> {flags.output}" if flags.output else ""
            n_instrs, n_bufs = replay.counts(T)
            sys.stderr.write(f"kltrace: {n_instrs} instructions, {n_bufs} buffers{target}; replicated "
                             f"{STATS['loops']} loops ({STATS['iterations']} iterations), "
                             f"{STATS['rolled_back']} rolled back, {STATS['nested']} nested, "
                             f"{STATS['records']} records from templates, {STATS['early']} decided early\n")
            sys.stderr.flush()
        if _NONCE is not None:
            _report({"done": {"bytes": size}})
        return 0
    except TraceError as e:
        if os.environ.get("KLTRACE_DEBUG") == "1":  # front-end developers: where in kltrace it was raised
            import traceback
            traceback.print_exc(file=sys.stderr)
        emit_error(e)
        return 2
    except SystemExit as e:
        if e.code in (0, None):
            return 0
        emit_error(TraceError("invalid_argument", "bad command line", "usage: " + USAGE))
        return 2
    except Exception as e:  # a front-end bug: still one JSON error, never a traceback on stdout
        import traceback
        traceback.print_exc(file=sys.stderr)
        emit_error(TraceError("internal", f"internal error in the front end: {type(e).__name__}: {e}",
                              "please report this with the kernel that caused it"))
        return 2
    finally:
        sandbox.disarm_alarm()
        if workdir is not None:
            workdir.leave()
