"""Dtype names and sizes; every dtype inside the front end is one of these canonical strings."""

SIZES = {
    "float32": 4, "float16": 2, "bfloat16": 2, "tfloat32": 4,
    "float8_e4m3": 1, "float8_e5m2": 1, "float8_e4m3fn": 1,
    "int32": 4, "int16": 2, "int8": 1, "uint32": 4, "uint16": 2, "uint8": 1, "bool": 1,
    # Packed MX types of NeuronCore-v4: four FP8 (or FP4) values per element.
    "float8_e5m2_x4": 4, "float8_e4m3fn_x4": 4, "float4_e2m1fn_x4": 2,
}
FLOATS = frozenset(("float32", "float16", "bfloat16", "tfloat32", "float8_e4m3", "float8_e5m2", "float8_e4m3fn",
                    "float8_e5m2_x4", "float8_e4m3fn_x4", "float4_e2m1fn_x4"))
_ALIASES = {"bool_": "bool", "float": "float32", "int": "int32", "fp32": "float32", "bf16": "bfloat16",
            "fp16": "float16", "half": "float16", "single": "float32", "float8e4": "float8_e4m3",
            "float8e5": "float8_e5m2", "float8_e4m3fnuz": "float8_e4m3", "float8_e5m2fnuz": "float8_e5m2"}
_cache = {}


def normalize(value):
    """Canonical name of a dtype given as a string, an nl/np dtype object or class; None if unknown."""
    try:
        return _cache[value]
    except (KeyError, TypeError):
        pass
    name = value
    if not isinstance(value, str):
        path = getattr(value, "_kl_path", None)  # a stand-in such as ml_dtypes.bfloat16 or torch.float32
        name = path.rsplit(".", 1)[-1] if isinstance(path, str) else getattr(value, "name", None)
        if not isinstance(name, str):
            name = getattr(value, "__name__", None)
        if not isinstance(name, str):
            return None
    for prefix in ("nl.", "np.", "numpy.", "nki.language.", "ml_dtypes."):
        if name.startswith(prefix):
            name = name[len(prefix):]
    name = _ALIASES.get(name, name)
    result = name if name in SIZES else None
    try:
        _cache[value] = result
    except TypeError:
        pass
    return result


def size_of(name):
    return SIZES[name]


def promote(a, b):
    """Result dtype of an elementwise op on two tiles (the wider float wins)."""
    if a == b:
        return a
    if a in FLOATS and b not in FLOATS:
        return a
    if b in FLOATS and a not in FLOATS:
        return b
    return a if SIZES[a] >= SIZES[b] else b
