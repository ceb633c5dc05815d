/* isa._nc_matmul, the body both generations' nisa.nc_matmul wrappers call (signatures.py), for a fresh, unmasked
 * matmul of two views whose layouts matmul_fast's memo holds: the caller's source location from the tracer's cache,
 * then fresh_matmul (klaccel_matmul.c). Any other call goes to the Python body (see klaccel.c). */
#include "klaccel.h"

static PyObject *body_py, *isa_file, *tracer;
static PyObject *n_loc_frame, *n_loc_lasti, *n_loc_value, *n_loc;
/* The body's parameters after dst, stationary, moving, by name: their position in `given` below. */
static const char* const names[] = {
    "dst",          "stationary", "moving",     "is_stationary_onezero", "is_moving_onezero",
    "is_transpose", "mask",       "accumulate", "tile_position",         "tile_size",
    "perf_mode"};
enum { DST, STATIONARY, MOVING, S_ONEZERO, M_ONEZERO, TRANSPOSE, MASK, ACCUMULATE, TPOS, TSIZE, PERF, N_PARAMS };
static PyObject* interned[N_PARAMS];

/* The tracer's source location of the kernel statement that called the wrapper `f`, as isa._nc_matmul finds it; *g
 * (new reference) is the frame fresh_matmul reads the `+=` from. NULL with an error, or Py_None (new) to hand the
 * call to Python. */
static PyObject* location(PyFrameObject* f, PyObject** g) {
    PyCodeObject* code = PyFrame_GetCode(f);
    int eq = PyObject_RichCompareBool(code->co_filename, isa_file, Py_EQ);
    Py_DECREF(code);
    if (eq < 0) {
        return NULL;
    }
    if (!eq) { /* called from the kernel itself, not through the generated wrapper */
        *g = Py_NewRef((PyObject*)f);
        return PyObject_CallMethodOneArg(tracer, n_loc, (PyObject*)f);
    }
    PyFrameObject* back = PyFrame_GetBack(f);
    if (back == NULL) {
        return Py_NewRef(Py_None);
    }
    *g = (PyObject*)back;
    PyObject* cached = tracer_attr(n_loc_frame);
    if (cached == NULL) {
        return NULL;
    }
    int same = cached == (PyObject*)back;
    Py_DECREF(cached);
    if (same) { /* T._loc_value when the frame and its offset are the cached ones */
        PyObject* lasti = tracer_attr(n_loc_lasti);
        PyObject* now = lasti == NULL ? NULL : PyLong_FromLong(PyFrame_GetLasti(back));
        same = now == NULL ? -1 : PyObject_RichCompareBool(now, lasti, Py_EQ);
        Py_XDECREF(lasti);
        Py_XDECREF(now);
        if (same < 0) {
            return NULL;
        }
    }
    return same ? tracer_attr(n_loc_value) : PyObject_CallMethodOneArg(tracer, n_loc, (PyObject*)f);
}

/* isa._nc_matmul(dst, stationary, moving, ...), called by name as the wrappers do. */
static PyObject* nc_matmul(PyObject* module, PyObject* const* args, size_t nargsf, PyObject* kwnames) {
    (void)module;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf), nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    PyObject* given[N_PARAMS] = {NULL};
    int plain = nargs <= 3;
    for (Py_ssize_t i = 0; plain && i < nargs; ++i) {
        given[i] = args[i];
    }
    for (Py_ssize_t k = 0; plain && k < nkw; ++k) {
        PyObject* name = PyTuple_GET_ITEM(kwnames, k);
        int found = 0;
        for (int p = 0; p < N_PARAMS && !found; ++p) {
            if (name == interned[p] && given[p] == NULL) {
                given[p] = args[nargs + k];
                found = 1;
            }
        }
        plain = found; /* an unknown or repeated name: Python's error */
    }
    PyObject* s = given[STATIONARY];
    PyObject* m = given[MOVING];
    int transposed = plain && given[TRANSPOSE] != NULL ? PyObject_IsTrue(given[TRANSPOSE]) : 0;
    if (transposed < 0) {
        return NULL;
    }
    PyFrameObject* f = PyEval_GetFrame();
    if (!plain || given[DST] != Py_None || transposed || (given[MASK] != NULL && given[MASK] != Py_None) ||
        (given[ACCUMULATE] != NULL && given[ACCUMULATE] != Py_None) ||
        (given[PERF] != NULL && given[PERF] != Py_None) || s == NULL || m == NULL || !Py_IS_TYPE(s, L.tensor) ||
        !Py_IS_TYPE(m, L.tensor) || f == NULL) {
        return PyObject_Vectorcall(body_py, args, nargsf, kwnames);
    }
    PyObject* g = NULL;
    PyObject* loc = location(f, &g);
    if (loc == NULL || loc == Py_None) {
        Py_XDECREF(g);
        if (loc == NULL) {
            return NULL;
        }
        Py_DECREF(loc);
        return PyObject_Vectorcall(body_py, args, nargsf, kwnames);
    }
    PyObject* call[4] = {s, m, loc, g};
    PyObject* res = klaccel_fresh_matmul(call, 4);
    Py_DECREF(loc);
    Py_DECREF(g);
    if (res != Py_None) {
        return res; /* the result, or NULL with the error */
    }
    Py_DECREF(res);
    /* Not in the memo: the Python body takes the general path (and fills the memo). */
    return PyObject_Vectorcall(body_py, args, nargsf, kwnames);
}

static PyMethodDef nc_matmul_def = {"_nc_matmul", (PyCFunction)(void (*)(void))nc_matmul, METH_FASTCALL | METH_KEYWORDS,
                                    "isa._nc_matmul (kltrace._klaccel)"};

int isa_install(PyObject* parts, PyObject* out) {
    if (keep_part(parts, "nc_matmul", &body_py) || keep_part(parts, "isa_file", &isa_file) ||
        keep_part(parts, "T", &tracer)) {
        return -1;
    }
    if (!PyUnicode_Check(isa_file)) {
        PyErr_SetString(PyExc_TypeError, "install: isa_file is not a str");
        return -1;
    }
    for (int p = 0; p < N_PARAMS; ++p) {
        if (interned[p] == NULL && (interned[p] = PyUnicode_InternFromString(names[p])) == NULL) {
            return -1;
        }
    }
    if (intern_name(&n_loc_frame, "_loc_frame") || intern_name(&n_loc_lasti, "_loc_lasti") ||
        intern_name(&n_loc_value, "_loc_value") || intern_name(&n_loc, "loc")) {
        return -1;
    }
    PyObject* fn = PyCFunction_New(&nc_matmul_def, NULL);
    int failed = fn == NULL || PyDict_SetItemString(out, "nc_matmul", fn);
    Py_XDECREF(fn);
    return failed ? -1 : 0;
}
