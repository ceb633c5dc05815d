/* Tensor.__getitem__ for a key whose view template is known, and IndexExpr.__add__ / __radd__ with an int: the
 * inlined paths of views._tensor_getitem and indexing.IndexExpr.__add__, in C (see klaccel.c). */
#include "klaccel.h"

static PyObject *templates, *getitem_py, *add_py, *full_span_name;

/* The template (the dict entry's hit[6]) of a key ending with the expressions `other`, `last`: from last's memo slot
 * `which` (the number of leading integers) when the view's dims and other's shape and coefficients are the objects
 * it was found for, else from the dict, then kept in the memo. Borrowed; Py_None for none; NULL on an error (set) or
 * an unexpected object (not set). */
static PyObject* template_of(PyObject* last, int which, PyObject* dims, PyObject* other) {
    PyObject* memo = SLOT(last, L.e_memo);
    PyObject *oshape = SLOT(other, L.e_shape), *ocoefs = SLOT(other, L.e_coefs);
    PyObject *lshape = SLOT(last, L.e_shape), *lcoefs = SLOT(last, L.e_coefs);
    if (memo == NULL || !PyList_CheckExact(memo) || PyList_GET_SIZE(memo) < 3) {
        return NULL;
    }
    PyObject* m = PyList_GET_ITEM(memo, which);
    if (m != Py_None && PyTuple_CheckExact(m) && PyTuple_GET_SIZE(m) == 4 && PyTuple_GET_ITEM(m, 0) == dims &&
        PyTuple_GET_ITEM(m, 1) == oshape && PyTuple_GET_ITEM(m, 2) == ocoefs) {
        return PyTuple_GET_ITEM(m, 3);
    }
    /* The dict's key as views._tensor_getitem builds it: the dims, None per integer, each expression's shape and
     * coefficients. */
    PyObject* key = which == 0   ? PyTuple_Pack(5, dims, oshape, ocoefs, lshape, lcoefs)
                    : which == 1 ? PyTuple_Pack(6, dims, Py_None, oshape, ocoefs, lshape, lcoefs)
                                 : PyTuple_Pack(7, dims, Py_None, Py_None, oshape, ocoefs, lshape, lcoefs);
    if (key == NULL) {
        return NULL;
    }
    PyObject* entry = PyDict_GetItemWithError(templates, key); /* borrowed */
    Py_DECREF(key);
    if (entry == NULL) {
        return PyErr_Occurred() ? NULL : Py_None;
    }
    if (!PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) < 7) {
        return NULL;
    }
    PyObject* hit = PyTuple_GET_ITEM(entry, 6);
    PyObject* kept = PyTuple_Pack(4, dims, oshape, ocoefs, hit);
    if (kept == NULL) {
        return NULL;
    }
    Py_INCREF(memo);
    int failed = PyList_SetItem(memo, which, kept); /* steals kept */
    Py_DECREF(memo);
    return failed ? NULL : hit;
}

/* A new view of self's buffer, field by field as views._tensor_getitem makes it. */
static PyObject* new_view(PyObject* self, long long off, PyObject* dims, PyObject* shape) {
    PyObject* buf = SLOT(self, L.t_buf);
    PyObject* offset = PyLong_FromLongLong(off);
    if (offset == NULL) {
        return NULL;
    }
    if (Py_IS_TYPE(buf, L.buffer)) {
        put_slot(buf, L.b_pinned, Py_True);
    } else if (PyObject_SetAttrString(buf, "pinned", Py_True) < 0) {
        Py_DECREF(offset);
        return NULL;
    }
    PyObject* v = L.tensor->tp_alloc(L.tensor, 0);
    if (v == NULL) {
        Py_DECREF(offset);
        return NULL;
    }
    PyObject* dtype = SLOT(self, L.t_dtype);
    SLOT(v, L.t_buf) = Py_NewRef(buf);
    SLOT(v, L.t_off) = offset;
    SLOT(v, L.t_dims) = Py_NewRef(dims);
    SLOT(v, L.t_dtype) = Py_NewRef(dtype);
    SLOT(v, L.t_shape) = Py_NewRef(shape);
    SLOT(v, L.t_checks) = Py_NewRef(Py_None);
    SLOT(v, L.t_root) = Py_NewRef(Py_False);
    SLOT(v, L.t_inplace) = Py_NewRef(Py_False);
    return v;
}

static PyObject* view_from_template(PyObject* self, PyObject* key, Py_ssize_t nk, PyObject* hit);

/* The view of a key `[ints..., expr, expr]` (0, 1 or 2 integers) from its template; Py_None (borrowed) when the
 * Python function must decide; NULL on an error. */
static PyObject* template_view(PyObject* self, PyObject* key, Py_ssize_t nk) {
    int n_ints = (int)nk - 2;
    PyObject *e1 = PyTuple_GET_ITEM(key, nk - 2), *e2 = PyTuple_GET_ITEM(key, nk - 1);
    if (!Py_IS_TYPE(e1, L.expr) || !Py_IS_TYPE(e2, L.expr)) {
        return Py_None;
    }
    for (int i = 0; i < n_ints; ++i) {
        if (!PyLong_CheckExact(PyTuple_GET_ITEM(key, i))) {
            return Py_None;
        }
    }
    PyObject* dims = SLOT(self, L.t_dims);
    if (dims == NULL || SLOT(e1, L.e_shape) == NULL || SLOT(e1, L.e_coefs) == NULL || SLOT(e2, L.e_shape) == NULL ||
        SLOT(e2, L.e_coefs) == NULL) {
        return Py_None;
    }
    PyObject* hit = template_of(e2, n_ints, dims, e1);
    if (hit == NULL) {
        return PyErr_Occurred() ? NULL : Py_None;
    }
    /* hit: ([s0, c0, [s1, c1,]] stride of e1, stride of e2, e1's valid constants, e2's, dims, shape): a (stride,
     * count) per integer; the valid constants are ranges. */
    if (hit == Py_None || !PyTuple_CheckExact(hit) || PyTuple_GET_SIZE(hit) != 2 * n_ints + 6) {
        return Py_None;
    }
    Py_INCREF(hit); /* held while the view is made (the memo may be replaced meanwhile) */
    PyObject* view = view_from_template(self, key, nk, hit);
    Py_DECREF(hit);
    return view;
}

/* template_view's view once its template `hit` is found. */
static PyObject* view_from_template(PyObject* self, PyObject* key, Py_ssize_t nk, PyObject* hit) {
    int n_ints = (int)nk - 2;
    PyObject *e1 = PyTuple_GET_ITEM(key, nk - 2), *e2 = PyTuple_GET_ITEM(key, nk - 1);
    long long k[4], s[4], off;
    for (int i = 0; i < n_ints; ++i) {
        long long count;
        if (!as_i64(PyTuple_GET_ITEM(hit, 2 * i), &s[i]) || !as_i64(PyTuple_GET_ITEM(hit, 2 * i + 1), &count) ||
            !as_i64(PyTuple_GET_ITEM(key, i), &k[i]) || !(0 <= k[i] && k[i] < count)) {
            return Py_None;
        }
    }
    PyObject *a1 = SLOT(e1, L.e_const), *a2 = SLOT(e2, L.e_const);
    if (!as_i64(PyTuple_GET_ITEM(hit, 2 * n_ints), &s[n_ints]) ||
        !as_i64(PyTuple_GET_ITEM(hit, 2 * n_ints + 1), &s[n_ints + 1]) || !as_i64(a1, &k[n_ints]) ||
        !as_i64(a2, &k[n_ints + 1]) || !as_i64(SLOT(self, L.t_off), &off)) {
        return Py_None;
    }
    int in = in_valid(PyTuple_GET_ITEM(hit, 2 * n_ints + 2), a1, k[n_ints]);
    if (in > 0) {
        in = in_valid(PyTuple_GET_ITEM(hit, 2 * n_ints + 3), a2, k[n_ints + 1]);
    }
    if (in <= 0) {
        return in < 0 ? NULL : Py_None;
    }
    for (int i = 0; i < nk; ++i) {
        long long term;
        if (__builtin_mul_overflow(k[i], s[i], &term) || __builtin_add_overflow(off, term, &off)) {
            return Py_None;
        }
    }
    return new_view(self, off, PyTuple_GET_ITEM(hit, 2 * n_ints + 4), PyTuple_GET_ITEM(hit, 2 * n_ints + 5));
}

static PyObject* view_from_signature(PyObject* self, PyObject* key, Py_ssize_t nk, long long off, PyObject* hit);

/* The view of a key of five or more integers and index expressions, one per dimension (`acc[a, b, c, i.p, i.x]`),
 * as views.index_view's signature path makes it from a stored template when every integer is in range and every
 * expression in bounds over its whole grid; Py_None (borrowed) when the Python function must decide; NULL on an
 * error. */
static PyObject* signature_view(PyObject* self, PyObject* key, Py_ssize_t nk) {
    PyObject* dims = SLOT(self, L.t_dims);
    long long off;
    if (dims == NULL || !PyTuple_CheckExact(dims) || PyTuple_GET_SIZE(dims) != nk ||
        !as_i64(SLOT(self, L.t_off), &off)) {
        return Py_None;
    }
    Py_ssize_t n_sig = 1;
    for (Py_ssize_t i = 0; i < nk; ++i) {
        PyObject* k = PyTuple_GET_ITEM(key, i);
        if (Py_IS_TYPE(k, L.expr)) {
            if (SLOT(k, L.e_shape) == NULL || SLOT(k, L.e_coefs) == NULL || SLOT(k, L.e_const) == NULL) {
                return Py_None;
            }
            n_sig += 2;
        } else if (PyLong_CheckExact(k)) {
            n_sig += 1;
        } else {
            return Py_None;
        }
    }
    /* The signature (dims, then None per integer and shape, coefficients per expression) and the offset. */
    PyObject* sig = PyTuple_New(n_sig);
    if (sig == NULL) {
        return NULL;
    }
    PyTuple_SET_ITEM(sig, 0, Py_NewRef(dims));
    Py_ssize_t at = 1;
    int fits = 1;
    for (Py_ssize_t i = 0; i < nk; ++i) {
        PyObject *k = PyTuple_GET_ITEM(key, i), *d = PyTuple_GET_ITEM(dims, i);
        long long stride, count, v, term;
        fits = fits && PyTuple_CheckExact(d) && PyTuple_GET_SIZE(d) == 2 && as_i64(PyTuple_GET_ITEM(d, 0), &stride) &&
               as_i64(PyTuple_GET_ITEM(d, 1), &count);
        if (Py_IS_TYPE(k, L.expr)) {
            PyTuple_SET_ITEM(sig, at++, Py_NewRef(SLOT(k, L.e_shape)));
            PyTuple_SET_ITEM(sig, at++, Py_NewRef(SLOT(k, L.e_coefs)));
            fits = fits && as_i64(SLOT(k, L.e_const), &v);
        } else {
            PyTuple_SET_ITEM(sig, at++, Py_NewRef(Py_None));
            fits = fits && as_i64(k, &v) && 0 <= v && v < count; /* else _checked_index decides */
        }
        fits = fits && !__builtin_mul_overflow(v, stride, &term) && !__builtin_add_overflow(off, term, &off);
    }
    PyObject* hit = fits ? Py_XNewRef(PyDict_GetItemWithError(templates, sig)) : NULL;
    Py_DECREF(sig);
    if (hit == NULL) {
        return PyErr_Occurred() ? NULL : Py_None;
    }
    PyObject* view = view_from_signature(self, key, nk, off, hit);
    Py_DECREF(hit);
    return view;
}

/* signature_view's view once its template `hit` is found and the offset `off` computed. */
static PyObject* view_from_signature(PyObject* self, PyObject* key, Py_ssize_t nk, long long off, PyObject* hit) {
    /* hit: (dims, check axes, shape, each expression's valid constants, ...); a view that keeps checks, or a [P]
     * result (Tensor.__getitem__ gives it a free axis), is the Python function's. */
    if (!PyTuple_CheckExact(hit) || PyTuple_GET_SIZE(hit) < 4 || !PyTuple_CheckExact(PyTuple_GET_ITEM(hit, 0)) ||
        PyTuple_GET_SIZE(PyTuple_GET_ITEM(hit, 0)) < 2 || PyTuple_GET_ITEM(hit, 2) == Py_None ||
        !PyTuple_CheckExact(PyTuple_GET_ITEM(hit, 3))) {
        return Py_None;
    }
    PyObject* valid = PyTuple_GET_ITEM(hit, 3);
    Py_ssize_t e = 0;
    for (Py_ssize_t i = 0; i < nk; ++i) {
        PyObject* k = PyTuple_GET_ITEM(key, i);
        if (!Py_IS_TYPE(k, L.expr)) {
            continue;
        }
        long long v;
        if (e >= PyTuple_GET_SIZE(valid) || !as_i64(SLOT(k, L.e_const), &v)) {
            return Py_None;
        }
        int in = in_valid(PyTuple_GET_ITEM(valid, e++), SLOT(k, L.e_const), v);
        if (in <= 0) {
            return in < 0 ? NULL : Py_None;
        }
    }
    return new_view(self, off, PyTuple_GET_ITEM(hit, 0), PyTuple_GET_ITEM(hit, 2));
}

/* A slice's start and stop when it has no step and both are ints that fit in 64 bits. */
static int plain_slice(PyObject* k, long long* start, long long* stop) {
    PySliceObject* sl = (PySliceObject*)k;
    return PySlice_Check(k) && sl->step == Py_None && as_i64(sl->start, start) && as_i64(sl->stop, stop);
}

/* The view of two in-bounds slices of a 2-D view (`t[a:b, c:d]`, the tiled loop's load), as views.index_view's
 * first path makes it; Py_None (borrowed) when the Python function must decide; NULL on an error. */
static PyObject* slices_view(PyObject* self, PyObject* key) {
    PyObject* dims = SLOT(self, L.t_dims);
    long long a0, b0, a1, b1, s0, c0, s1, c1, off;
    if (dims == NULL || !PyTuple_CheckExact(dims) || PyTuple_GET_SIZE(dims) != 2 ||
        !plain_slice(PyTuple_GET_ITEM(key, 0), &a0, &b0) || !plain_slice(PyTuple_GET_ITEM(key, 1), &a1, &b1) ||
        !as_i64(SLOT(self, L.t_off), &off)) {
        return Py_None;
    }
    PyObject *d0 = PyTuple_GET_ITEM(dims, 0), *d1 = PyTuple_GET_ITEM(dims, 1);
    if (!PyTuple_CheckExact(d0) || PyTuple_GET_SIZE(d0) != 2 || !PyTuple_CheckExact(d1) || PyTuple_GET_SIZE(d1) != 2 ||
        !as_i64(PyTuple_GET_ITEM(d0, 0), &s0) || !as_i64(PyTuple_GET_ITEM(d0, 1), &c0) ||
        !as_i64(PyTuple_GET_ITEM(d1, 0), &s1) || !as_i64(PyTuple_GET_ITEM(d1, 1), &c1) ||
        !(0 <= a0 && a0 < b0 && b0 <= c0 && 0 <= a1 && a1 < b1 && b1 <= c1)) {
        return Py_None;
    }
    long long t0, t1;
    if (__builtin_mul_overflow(a0, s0, &t0) || __builtin_mul_overflow(a1, s1, &t1) ||
        __builtin_add_overflow(off, t0, &off) || __builtin_add_overflow(off, t1, &off)) {
        return Py_None;
    }
    /* ((s0, n0), (s1, n1)) and (n0, n1): new tuples, as the Python path makes them. */
    PyObject* view_dims =
        Py_BuildValue("((OL)(OL))", PyTuple_GET_ITEM(d0, 0), b0 - a0, PyTuple_GET_ITEM(d1, 0), b1 - a1);
    PyObject* shape = view_dims == NULL ? NULL : Py_BuildValue("(LL)", b0 - a0, b1 - a1);
    PyObject* view = shape == NULL ? NULL : new_view(self, off, view_dims, shape);
    Py_XDECREF(view_dims);
    Py_XDECREF(shape);
    return view;
}

/* Tensor.__getitem__: `t[key]`, a new view of the same buffer. */
static PyObject* tensor_getitem(PyObject* self, PyObject* key) {
    PyObject* checks = SLOT(self, L.t_checks);
    if (!PyObject_TypeCheck(self, L.tensor) || SLOT(self, L.t_buf) == NULL || checks == NULL ||
        SLOT(self, L.t_dtype) == NULL || SLOT(self, L.t_off) == NULL) {
        return call2(getitem_py, self, key);
    }
    PyObject* view = Py_None;
    if (PyTuple_CheckExact(key) && checks == Py_None) {
        Py_ssize_t nk = PyTuple_GET_SIZE(key);
        if (nk == 2 && PySlice_Check(PyTuple_GET_ITEM(key, 0))) {
            view = slices_view(self, key);
        } else if (nk >= 2 && nk <= 4) {
            view = template_view(self, key, nk);
        } else if (nk >= 5) {
            view = signature_view(self, key, nk);
        }
    } else if (key == Py_Ellipsis) {
        /* `tile[...]`: the same region; sharing `dims` lets make_ap reuse the buffer's cached operand. */
        int empty = PyObject_Not(checks);
        if (empty < 0) {
            return NULL;
        }
        long long off;
        PyObject *dims = SLOT(self, L.t_dims), *shape = SLOT(self, L.t_shape);
        if (empty && dims != NULL && shape != NULL && as_i64(SLOT(self, L.t_off), &off)) {
            view = new_view(self, off, dims, shape);
        }
    }
    return view != Py_None ? view : call2(getitem_py, self, key);
}

/* IndexExpr.__add__ and __radd__: `expr + n` and `n + expr` for an int n. */
static PyObject* expr_add(PyObject* self, PyObject* other) {
    if (!PyLong_CheckExact(other) || !PyObject_TypeCheck(self, L.expr)) {
        return call2(add_py, self, other);
    }
    PyObject *shape = SLOT(self, L.e_shape), *coefs = SLOT(self, L.e_coefs), *cst = SLOT(self, L.e_const);
    PyObject *span = SLOT(self, L.e_span), *memo = SLOT(self, L.e_memo);
    if (shape == NULL || coefs == NULL || cst == NULL || span == NULL || memo == NULL) {
        return call2(add_py, self, other);
    }
    PyObject* sum = PyNumber_Add(cst, other);
    if (sum == NULL) {
        return NULL;
    }
    int truthy = PyObject_IsTrue(span); /* `self.span or self.full_span()` */
    span = truthy > 0 ? Py_NewRef(span) : truthy == 0 ? PyObject_CallMethodNoArgs(self, full_span_name) : NULL;
    PyObject* e = span == NULL ? NULL : L.expr->tp_alloc(L.expr, 0);
    if (e == NULL) {
        Py_DECREF(sum);
        Py_XDECREF(span);
        return NULL;
    }
    SLOT(e, L.e_shape) = Py_NewRef(shape);
    SLOT(e, L.e_coefs) = Py_NewRef(coefs);
    SLOT(e, L.e_const) = sum;
    SLOT(e, L.e_span) = span;
    SLOT(e, L.e_memo) = Py_NewRef(memo);
    return e;
}

static PyMethodDef getitem_def = {"__getitem__", (PyCFunction)tensor_getitem, METH_O, "t[key] (kltrace._klaccel)"};
static PyMethodDef add_def = {"__add__", (PyCFunction)expr_add, METH_O, "expr + n (kltrace._klaccel)"};

int views_install(PyObject* parts, PyObject* out) {
    if (keep_part(parts, "templates", &templates) || keep_part(parts, "getitem", &getitem_py) ||
        keep_part(parts, "add", &add_py)) {
        return -1;
    }
    if (!PyDict_Check(templates)) {
        PyErr_SetString(PyExc_TypeError, "install: templates is not a dict");
        return -1;
    }
    if (full_span_name == NULL && (full_span_name = PyUnicode_InternFromString("full_span")) == NULL) {
        return -1;
    }
    return add_method(out, "getitem", &getitem_def) || add_method(out, "add", &add_def) ? -1 : 0;
}
