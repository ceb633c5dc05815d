"""task.json's numerics fields and the numerics flags: checked like the rest of task.json (cli.read_task),
then merged into run.Options (flags over task.json over defaults). Imports nothing heavy: cli.py loads it
for every trace, and tracing for time must not import NumPy."""
import os


def check(task, bad, whole):
    """task.json's value-mode fields (docs/task-format.md, "numerics"): typed and ranged like the rest."""
    for key in ("reference", "cuda_numerics"):
        if key in task and not isinstance(task[key], str):
            raise bad(f"\"{key}\" must be a string, not {type(task[key]).__name__}")
    if "reference" in task:
        ref = task["reference"]
        file, sep, func = ref.rpartition(":")
        if not sep or not file.endswith(".py") or not func.isidentifier() or ".." in file.split("/") \
                or file.startswith("/"):
            raise bad(f"\"reference\" must be FILE.py:FUNCTION inside the task folder, not '{ref}'")
    num = task.get("numerics")
    if num is None:
        return
    if not isinstance(num, dict):
        raise bad("\"numerics\" must be an object")
    known = {"args", "inputs", "seed", "tolerance", "rtol", "atol", "scalars", "rounding"}
    for key in num:
        if key not in known:
            raise bad(f"numerics.{key} is not a known field", "numerics fields: " + ", ".join(sorted(known)))
    if "args" in num:
        names = [a.get("name") for a in task["args"]]
        if not isinstance(num["args"], list) or len(num["args"]) != len(names):
            raise bad("numerics.args must list the same arguments as \"args\"")
        for i, a in enumerate(num["args"]):
            if not isinstance(a, dict) or a.get("name") not in names or not isinstance(a.get("dtype", ""), str):
                raise bad(f"numerics.args[{i}] needs the \"name\" of one of \"args\" (and a dtype string)")
            shape = a.get("shape")
            if not isinstance(shape, list) or len(shape) > 8 or not all(whole(d, 1, 1 << 24) for d in shape):
                raise bad(f"numerics.args[{i}].shape must be a list of at most 8 whole numbers from 1 to 2^24")
    for key in ("inputs", "tolerance"):
        if key in num and not isinstance(num[key], str):
            raise bad(f"numerics.{key} must be a string")
    if num.get("rounding", "nearest") not in ("nearest", "stochastic"):
        raise bad("numerics.rounding must be \"nearest\" or \"stochastic\"")
    if "seed" in num and not whole(num["seed"], 0, (1 << 63) - 1):
        raise bad("numerics.seed must be a whole number from 0 to 2^63-1")
    for key in ("rtol", "atol"):
        v = num.get(key)
        if key in num and (isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < 1e30):
            raise bad(f"numerics.{key} must be a number >= 0")
    if "scalars" in num and not isinstance(num["scalars"], dict):
        raise bad("numerics.scalars must be an object of parameter name -> value")


def value_args(task, args, scalars, parse_dtype):
    """Value mode runs at task.json numerics.args's shapes (same names, dtype kept unless given)."""
    num = task.get("numerics") or {}
    by_name = {a["name"]: a for a in num.get("args", [])}
    if by_name:
        args = [(n, [int(d) for d in by_name[n]["shape"]],
                 parse_dtype(str(by_name[n].get("dtype", dt)), "task.json numerics.args")) for n, s, dt in args]
    return args, dict(scalars, **num.get("scalars", {}))


def options(flags, spec):
    """Flags over task.json's numerics fields over the defaults."""
    from .run import Options
    task = getattr(spec, "task", {}) or {}
    num = task.get("numerics") or {}
    o = Options()
    o.base = spec.base_dir or os.path.dirname(spec.kernel_file)
    o.reference = flags.reference if flags.reference is not None else task.get("reference", "")
    o.cuda_numerics = flags.cuda_numerics if flags.cuda_numerics is not None else task.get("cuda_numerics", "none")
    o.inputs = flags.inputs if flags.inputs is not None else num.get("inputs", "normal")
    o.seed = flags.seed if flags.seed is not None else num.get("seed", 0)
    o.tolerance = flags.tolerance if flags.tolerance is not None else num.get("tolerance", "default")
    o.rtol = flags.rtol if flags.rtol is not None else num.get("rtol")
    o.atol = flags.atol if flags.atol is not None else num.get("atol")
    o.rounding = flags.rounding if flags.rounding is not None else num.get("rounding", "nearest")
    o.values_out = os.path.abspath(flags.values_out) if flags.values_out else None
    return o
