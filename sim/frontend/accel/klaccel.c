/* kltrace._klaccel: the plain trace's most frequent calls in C (issue 20).
 *
 * Each C function does exactly what the Python function it replaces does, for the common case only, and hands
 * everything else to that function, which stays the reference: an unexpected type, an unset slot, an integer beyond
 * 64 bits, a memo miss, any branch that makes something new. kltrace/accel.py binds them; KL_TRACE_ACCEL=0 keeps
 * Python (tests/frontend/test_accel.py traces every example both ways and compares the IR byte for byte).
 *
 * Why C: as Python bytecode these calls were about three quarters of plain tracing's time on the matmul examples
 * (about 950 of 1,250 bytecodes per instruction of matmul_optimized, bench/trace_counts.py).
 *
 * Slots are read and written at the offsets of the classes' own member descriptors, looked up once in install(), so
 * the classes stay plain Python classes with __slots__.
 */
#include "klaccel.h"

#include <structmember.h>

Layout L;

static PyObject *tracer, *tracer_dict;

PyObject* tracer_attr(PyObject* name) {
    PyObject* value = PyDict_GetItemWithError(tracer_dict, name);
    if (value != NULL) {
        return Py_NewRef(value);
    }
    return PyErr_Occurred() ? NULL : PyObject_GetAttr(tracer, name);
}

/* CPython's range object (Objects/rangeobject.c, not in its headers): install() checks this layout against a range it
 * makes, and in_valid reads ranges through it only then. */
typedef struct {
    PyObject_HEAD PyObject* start;
    PyObject* stop;
    PyObject* step;
    PyObject* length;
} RangeLayout;
static int range_layout_ok;

int in_valid(PyObject* r, PyObject* a, long long v) {
    long long start, stop, step;
    if (range_layout_ok && Py_IS_TYPE(r, &PyRange_Type) && as_i64(((RangeLayout*)r)->step, &step) && step == 1 &&
        as_i64(((RangeLayout*)r)->start, &start) && as_i64(((RangeLayout*)r)->stop, &stop)) {
        return start <= v && v < stop;
    }
    return PySequence_Contains(r, a);
}

static int check_range_layout(void) {
    PyObject* r = PyObject_CallFunction((PyObject*)&PyRange_Type, "iii", 3, 17, 2);
    if (r == NULL) {
        return -1;
    }
    long long start, stop, step;
    range_layout_ok = as_i64(((RangeLayout*)r)->start, &start) && as_i64(((RangeLayout*)r)->stop, &stop) &&
                      as_i64(((RangeLayout*)r)->step, &step) && start == 3 && stop == 17 && step == 2;
    Py_DECREF(r);
    return 0;
}

/* The tracer and its __dict__: its fields are plain instance attributes (Tracer.reset), none shadowed by a class
 * attribute, which install() checks. */
static int bind_tracer(PyObject* parts) {
    if (keep_part(parts, "T", &tracer)) {
        return -1;
    }
    PyObject* dict = PyObject_GenericGetDict(tracer, NULL);
    if (dict == NULL) {
        return -1;
    }
    Py_XSETREF(tracer_dict, dict);
    static const char* const fields[] = {"values",  "_names",     "instrs",     "iter_tuple", "pid",
                                         "buffers", "_loc_frame", "_loc_lasti", "_loc_value"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; ++i) {
        if (PyObject_HasAttrString((PyObject*)Py_TYPE(tracer), fields[i])) {
            PyErr_Format(PyExc_TypeError, "install: the tracer's class has an attribute %s", fields[i]);
            return -1;
        }
    }
    return 0;
}

int slot_offset(PyTypeObject* type, const char* name, Py_ssize_t* out) {
    PyObject* descr = PyDict_GetItemString(type->tp_dict, name); /* borrowed */
    if (descr == NULL || !PyObject_TypeCheck(descr, &PyMemberDescr_Type) ||
        ((PyMemberDescrObject*)descr)->d_member->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "%s.%s is not an object slot", type->tp_name, name);
        return -1;
    }
    *out = ((PyMemberDescrObject*)descr)->d_member->offset;
    return 0;
}

PyObject* part(PyObject* parts, const char* name) {
    PyObject* value = PyDict_GetItemString(parts, name);
    if (value == NULL) {
        PyErr_Format(PyExc_KeyError, "install: no part named %s", name);
    }
    return value;
}

int keep_part(PyObject* parts, const char* name, PyObject** out) {
    PyObject* value = part(parts, name);
    if (value == NULL) {
        return -1;
    }
    Py_INCREF(value);
    Py_XSETREF(*out, value);
    return 0;
}

int add_method(PyObject* out, const char* name, PyMethodDef* def) {
    PyObject* descr = PyDescr_NewMethod(&PyBaseObject_Type, def);
    int failed = descr == NULL || PyDict_SetItemString(out, name, descr);
    Py_XDECREF(descr);
    return failed ? -1 : 0;
}

int intern_name(PyObject** out, const char* text) {
    if (*out == NULL) {
        *out = PyUnicode_InternFromString(text);
    }
    return *out == NULL ? -1 : 0;
}

static int type_part(PyObject* parts, const char* name, PyTypeObject** out) {
    PyObject* value = part(parts, name);
    if (value == NULL) {
        return -1;
    }
    if (!PyType_Check(value)) {
        PyErr_Format(PyExc_TypeError, "install: %s is not a class", name);
        return -1;
    }
    Py_INCREF(value);
    Py_XSETREF(*out, (PyTypeObject*)value);
    return 0;
}

static int layout(PyObject* parts) {
    if (type_part(parts, "Tensor", &L.tensor) || type_part(parts, "IndexExpr", &L.expr) ||
        type_part(parts, "Buffer", &L.buffer) || type_part(parts, "Instr", &L.instr) ||
        type_part(parts, "FusedResult", &L.fused)) {
        return -1;
    }
    struct {
        PyTypeObject* type;
        const char* name;
        Py_ssize_t* out;
    } slots[] = {
        {L.tensor, "buf", &L.t_buf},
        {L.tensor, "off", &L.t_off},
        {L.tensor, "dims", &L.t_dims},
        {L.tensor, "dtype", &L.t_dtype},
        {L.tensor, "shape", &L.t_shape},
        {L.tensor, "checks", &L.t_checks},
        {L.tensor, "root", &L.t_root},
        {L.tensor, "inplace", &L.t_inplace},
        {L.expr, "shape", &L.e_shape},
        {L.expr, "coefs", &L.e_coefs},
        {L.expr, "const", &L.e_const},
        {L.expr, "span", &L.e_span},
        {L.expr, "memo", &L.e_memo},
        {L.buffer, "pinned", &L.b_pinned},
        {L.buffer, "pstride", &L.b_pstride},
        {L.buffer, "dtype", &L.b_dtype},
        {L.buffer, "memory", &L.b_memory},
        {L.buffer, "written", &L.b_written},
        {L.buffer, "zeroed", &L.b_zeroed},
        {L.buffer, "rdims", &L.b_rdims},
        {L.buffer, "rap", &L.b_rap},
        {L.buffer, "mm_keys", &L.b_mm_keys},
        {L.instr, "op", &L.i_op},
        {L.instr, "engine", &L.i_engine},
        {L.instr, "dst", &L.i_dst},
        {L.instr, "src", &L.i_src},
        {L.instr, "elements", &L.i_elements},
        {L.instr, "nbytes", &L.i_nbytes},
        {L.instr, "attrs", &L.i_attrs},
        {L.instr, "loc", &L.i_loc},
        {L.instr, "iter", &L.i_iter},
        {L.instr, "pid", &L.i_pid},
        {L.instr, "ranges", &L.i_ranges},
    };
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; ++i) {
        if (slot_offset(slots[i].type, slots[i].name, slots[i].out)) {
            return -1;
        }
    }
    /* FusedResult becomes a plain Tensor in place (matmul_fused.materialise): it must have Tensor's layout. */
    if (!PyType_IsSubtype(L.fused, L.tensor) || L.fused->tp_basicsize != L.tensor->tp_basicsize) {
        PyErr_SetString(PyExc_TypeError, "install: FusedResult does not share Tensor's layout");
        return -1;
    }
    return 0;
}

/* install(parts) -> {name: function}: binds the classes and Python fallbacks named in `parts` (see accel.py) and
 * returns the C functions for the caller to set in their places. */
static PyObject* install(PyObject* module, PyObject* parts) {
    (void)module;
    if (!PyDict_Check(parts)) {
        PyErr_SetString(PyExc_TypeError, "install: expects a dict");
        return NULL;
    }
    PyObject* out = PyDict_New();
    if (out == NULL || layout(parts) || bind_tracer(parts) || check_range_layout() || views_install(parts, out) ||
        matmul_install(parts, out) || isa_install(parts, out)) {
        Py_XDECREF(out);
        return NULL;
    }
    return out;
}

static PyMethodDef module_methods[] = {
    {"install", install, METH_O, "Binds the classes and fallbacks; returns the C functions by name."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "_klaccel",
    "The plain trace's most frequent calls in C (see klaccel.c).",
    -1,
    module_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__klaccel(void) {
    return PyModule_Create(&module_def);
}
