/* Shared by kltrace._klaccel's files: the classes given to install() and their slots' offsets. */
#ifndef KLACCEL_H
#define KLACCEL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* An object's slot, read or written at its member descriptor's offset: NULL when unset. */
#define SLOT(obj, off) (*(PyObject**)((char*)(obj) + (off)))

typedef struct {
    PyTypeObject *tensor, *expr, *buffer, *instr, *fused;
    /* Tensor */
    Py_ssize_t t_buf, t_off, t_dims, t_dtype, t_shape, t_checks, t_root, t_inplace;
    /* IndexExpr */
    Py_ssize_t e_shape, e_coefs, e_const, e_span, e_memo;
    /* Buffer */
    Py_ssize_t b_pinned, b_pstride, b_dtype, b_memory, b_written, b_zeroed, b_rdims, b_rap, b_mm_keys;
    /* Instr */
    Py_ssize_t i_op, i_engine, i_dst, i_src, i_elements, i_nbytes, i_attrs, i_loc, i_iter, i_pid, i_ranges;
} Layout;

extern Layout L;

/* Sets a slot, releasing what it held; steals `value`. */
static inline void set_slot(PyObject* obj, Py_ssize_t off, PyObject* value) {
    PyObject* old = SLOT(obj, off);
    SLOT(obj, off) = value;
    Py_XDECREF(old);
}

/* The same, with a new reference taken on `value`. */
static inline void put_slot(PyObject* obj, Py_ssize_t off, PyObject* value) {
    Py_INCREF(value);
    set_slot(obj, off, value);
}

/* An exact int that fits in 64 bits: 1 and *out; else 0, no error set (the caller hands the call to Python). Ints of
 * one 30-bit digit, nearly all of a trace's, are read directly. */
static inline int as_i64(PyObject* o, long long* out) {
    if (o == NULL || !PyLong_CheckExact(o)) {
        return 0;
    }
    Py_ssize_t size = Py_SIZE(o);
    if (size >= -1 && size <= 1) {
        *out = size * (long long)((PyLongObject*)o)->ob_digit[0];
        return 1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    *out = v;
    return 1;
}

/* `a in r` (a is the int object, v its value): 1, 0, or -1 with an error. A range of step 1 is read directly (see
 * klaccel.c); anything else asks Python. */
int in_valid(PyObject* r, PyObject* a, long long v);

/* The tracer's attribute `name` (a new reference; NULL with an error): from its __dict__, else Python's getattr. */
PyObject* tracer_attr(PyObject* name);

/* f(a, b) */
static inline PyObject* call2(PyObject* f, PyObject* a, PyObject* b) {
    PyObject* args[2] = {a, b};
    return PyObject_Vectorcall(f, args, 2, NULL);
}

/* The offset of `type`'s object slot `name`; -1 with TypeError when it is not one. */
int slot_offset(PyTypeObject* type, const char* name, Py_ssize_t* out);

/* Each part's objects from install()'s dict, and its method descriptors (views: getitem, add; matmul: fresh_matmul,
 * iadd, setitem) into `out`. 0, or -1 with an exception set. */
int views_install(PyObject* parts, PyObject* out);
int matmul_install(PyObject* parts, PyObject* out);
int isa_install(PyObject* parts, PyObject* out);

/* matmul_fast.fresh_matmul(stationary, moving, loc[, frame]) (klaccel_matmul.c), for isa._nc_matmul's C body. */
PyObject* klaccel_fresh_matmul(PyObject* const* args, Py_ssize_t nargs);

/* *out = the interned string `text`, made once; -1 on an error. */
int intern_name(PyObject** out, const char* text);

/* parts[name], borrowed; NULL with KeyError. */
PyObject* part(PyObject* parts, const char* name);

/* *out = parts[name] (a new reference, replacing the last); -1 with KeyError. */
int keep_part(PyObject* parts, const char* name, PyObject** out);

/* out[name] = a method descriptor of `object` for def: every instance passes its type check, and a type's slot
 * (t[k], a + b) calls it unbound. */
int add_method(PyObject* out, const char* name, PyMethodDef* def);

#endif
