/* The fused matmul statement `psum[...] += nisa.nc_matmul(a, b)` in C (see klaccel.c): matmul_fast.fresh_matmul when
 * the `+=` follows the call (its FusedResult path), operators._iadd consuming that result (matmul_fused's
 * accumulate_fused and into_sum, when the PSUM region's sum goes on), and operators._setitem's `t[k] = x` after
 * `t[k] += x` (nothing to do). Anything else goes to those Python functions. */
#include "klaccel.h"

/* From matmul_fast, matmul_fused, operators, ops, tracer, tensor, dtypes (see accel.py). */
static PyObject *last, *pairs, *fixed, *tracer, *indirect_seen, *plus_equals, *open_entry, *materialise;
static PyObject *fresh_py, *iadd_py, *setitem_py, *into_sum_py, *mm_shared, *mm_attrs, *sizes, *whole_psum;
static PyObject *plus_equals_stored, *pending;
/* Interned names and constants. */
static PyObject *n_values, *n_names, *n_var_name, *n_instrs, *n_iter_tuple, *n_pid, *n_buffers;
static PyObject *s_nc_matmul, *s_tensor, *s_matmul, *no_decl, *zero;

/* The memo lists still hold their items (a kernel could reach and empty them): else the Python functions decide. */
static int memos_intact(void) {
    return PyList_GET_SIZE(last) >= 1 && PyList_GET_SIZE(fixed) >= 3 && PyList_GET_SIZE(open_entry) >= 1 &&
           PyList_GET_SIZE(indirect_seen) >= 1;
}

/* a == b for each of n pairs, as a tuple comparison does (identity first): 1, 0, or -1 on an error. */
static int all_equal(PyObject* const* a, PyObject* b, Py_ssize_t n) {
    if (!PyTuple_CheckExact(b) || PyTuple_GET_SIZE(b) != n) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; ++i) {
        if (a[i] == NULL) {
            return 0;
        }
        int eq = PyObject_RichCompareBool(a[i], PyTuple_GET_ITEM(b, i), Py_EQ);
        if (eq <= 0) {
            return eq;
        }
    }
    return 1;
}

/* A matmul operand as fresh_matmul makes it: the buffer's cached whole-tile operand, else (buf, p0, pcount,
 * offset in the partition, pattern, dtype) from the memo entry's layout. New reference; Py_None (new) when the
 * general path must make it; NULL on an error. */
static PyObject* operand(PyObject* view, PyObject* b, PyObject* dims, PyObject* pstride, PyObject* layout,
                         PyObject* dtype) {
    PyObject* off = SLOT(view, L.t_off); /* this slot and the buffer's are set (fresh_matmul checked) */
    long long o, ps;
    int small = as_i64(off, &o) && as_i64(pstride, &ps) && ps > 0;
    if (dims == SLOT(b, L.b_rdims)) {
        int at_zero = small ? o == 0 : PyObject_RichCompareBool(off, zero, Py_EQ);
        if (at_zero < 0) {
            return NULL;
        }
        if (at_zero) {
            PyObject* rap = SLOT(b, L.b_rap);
            return rap == Py_None ? Py_NewRef(Py_None) : PySequence_GetItem(rap, 0);
        }
    }
    if (!PyTuple_CheckExact(layout) || PyTuple_GET_SIZE(layout) < 2) {
        PyErr_SetString(PyExc_TypeError, "a matmul memo entry's layout is not a pair");
        return NULL;
    }
    PyObject *p0, *inner; /* off // pstride and off - p0 * pstride, Python's floor division */
    if (small) {
        long long q = o / ps, r = o % ps;
        if (r < 0) {
            q -= 1;
            r += ps;
        }
        p0 = PyLong_FromLongLong(q);
        inner = p0 == NULL ? NULL : PyLong_FromLongLong(r);
    } else {
        p0 = PyNumber_FloorDivide(off, pstride);
        PyObject* start = p0 == NULL ? NULL : PyNumber_Multiply(p0, pstride);
        inner = start == NULL ? NULL : PyNumber_Subtract(off, start);
        Py_XDECREF(start);
    }
    PyObject* ap = inner == NULL
                       ? NULL
                       : PyTuple_Pack(6, b, p0, PyTuple_GET_ITEM(layout, 0), inner, PyTuple_GET_ITEM(layout, 1), dtype);
    Py_XDECREF(p0);
    Py_XDECREF(inner);
    return ap;
}

/* The recorded instruction of the fused path, field by field as fresh_matmul makes it. */
static PyObject* new_instr(PyObject* src, PyObject* hit, PyObject* attrs, PyObject* loc) {
    PyObject* iter = tracer_attr(n_iter_tuple);
    PyObject* pid = iter == NULL ? NULL : tracer_attr(n_pid);
    PyObject* ins = pid == NULL ? NULL : L.instr->tp_alloc(L.instr, 0);
    if (ins == NULL) {
        Py_XDECREF(iter);
        Py_XDECREF(pid);
        return NULL;
    }
    SLOT(ins, L.i_op) = Py_NewRef(s_nc_matmul);
    SLOT(ins, L.i_engine) = Py_NewRef(s_tensor);
    SLOT(ins, L.i_dst) = Py_NewRef(Py_None);
    SLOT(ins, L.i_src) = Py_NewRef(src);
    SLOT(ins, L.i_elements) = Py_NewRef(PyTuple_GET_ITEM(hit, 3));
    SLOT(ins, L.i_nbytes) = Py_NewRef(PyTuple_GET_ITEM(hit, 4));
    SLOT(ins, L.i_attrs) = Py_NewRef(attrs);
    SLOT(ins, L.i_loc) = Py_NewRef(loc);
    SLOT(ins, L.i_iter) = iter;
    SLOT(ins, L.i_pid) = pid;
    SLOT(ins, L.i_ranges) = Py_NewRef(Py_None);
    return ins;
}

/* plus_equals_follows' cached answer for the frame's current instruction, borrowed; NULL when not cached yet (or on
 * an error, set). */
static PyObject* fuse_answer(PyObject* frame) {
    PyCodeObject* code = PyFrame_GetCode((PyFrameObject*)frame);
    PyObject* id = PyLong_FromVoidPtr(code); /* by id, as matmul_fused keys it (tracer.CODES keeps the code) */
    Py_DECREF(code);
    PyObject* lasti = id == NULL ? NULL : PyLong_FromLong(PyFrame_GetLasti((PyFrameObject*)frame));
    PyObject* key = lasti == NULL ? NULL : PyTuple_Pack(2, id, lasti);
    Py_XDECREF(id);
    Py_XDECREF(lasti);
    if (key == NULL) {
        return NULL;
    }
    PyObject* answer = PyDict_GetItemWithError(plus_equals, key);
    Py_DECREF(key);
    return answer;
}

/* The rest of fresh_matmul once its checks passed: the operands, the name, the instruction and the open entry. */
static PyObject* record_fused(PyObject* const* args, PyObject* e, PyObject* fuse) {
    PyObject *s = args[0], *m = args[1], *loc = args[2];
    PyObject *sb = SLOT(s, L.t_buf), *mb = SLOT(m, L.t_buf), *expected = PyTuple_GET_ITEM(e, 2);
    if (!PyTuple_Check(expected) || PyTuple_GET_SIZE(expected) < 2) {
        return PyObject_Vectorcall(fresh_py, args, 4, NULL);
    }
    PyObject* sap =
        operand(s, sb, SLOT(s, L.t_dims), PyTuple_GET_ITEM(expected, 0), PyTuple_GET_ITEM(e, 3), SLOT(s, L.t_dtype));
    if (sap == Py_None) {
        return sap;
    }
    PyObject* map = sap == NULL ? NULL
                                : operand(m, mb, SLOT(m, L.t_dims), PyTuple_GET_ITEM(expected, 1),
                                          PyTuple_GET_ITEM(e, 4), SLOT(m, L.t_dtype));
    if (map == NULL || map == Py_None) {
        Py_XDECREF(sap);
        return map;
    }
    put_slot(sb, L.b_pinned, Py_True);
    put_slot(mb, L.b_pinned, Py_True);
    PyObject *hit = PyTuple_GET_ITEM(e, 6), *shape = PyTuple_GET_ITEM(e, 7);
    PyObject* src = PyTuple_Pack(2, sap, map);
    Py_DECREF(sap);
    Py_DECREF(map);
    if (src == NULL) {
        return NULL;
    }
    PyObject *decl = NULL, *name = NULL, *ins = NULL, *res = NULL, *buffers = NULL, *result = NULL;
    int has_loc = PyObject_IsTrue(loc);
    if (has_loc < 0) {
        goto done;
    }
    decl = has_loc ? PySequence_GetItem(loc, 0) : Py_NewRef(no_decl);
    PyObject* names = decl == NULL ? NULL : tracer_attr(n_names);
    if (names == NULL) {
        goto done;
    }
    name = PyDict_Check(names) ? Py_XNewRef(PyDict_GetItemWithError(names, decl)) : NULL; /* T.var_name's cache */
    Py_DECREF(names);
    if (name == NULL && PyErr_Occurred()) {
        goto done;
    }
    int named = name == NULL ? 0 : PyObject_IsTrue(name);
    if (named < 0) {
        goto done;
    }
    if (!named) {
        Py_XSETREF(name, PyObject_CallMethodObjArgs(tracer, n_var_name, loc, s_matmul, NULL));
        if (name == NULL) {
            goto done;
        }
    }
    ins = new_instr(src, hit, PyTuple_GET_ITEM(e, 5), loc);
    PyObject* instrs = ins == NULL ? NULL : tracer_attr(n_instrs);
    int appended = instrs == NULL ? -1 : PyList_Check(instrs) ? PyList_Append(instrs, ins) : -2;
    Py_XDECREF(instrs);
    if (appended < 0) {
        if (appended == -2) {
            PyErr_SetString(PyExc_TypeError, "T.instrs is not a list");
        }
        goto done;
    }
    /* An entry of this trace left open (not expected: the `+=` follows the call at once) gets its tile first. */
    PyObject* open = PyList_GET_SIZE(open_entry) >= 1 ? PyList_GET_ITEM(open_entry, 0) : Py_None;
    if (open != Py_None) {
        buffers = tracer_attr(n_buffers);
        if (buffers == NULL) {
            goto done;
        }
        if (PyTuple_Check(open) && PyTuple_GET_SIZE(open) == 9 && PyTuple_GET_ITEM(open, 8) == buffers) {
            Py_INCREF(open); /* materialise closes the entry, which holds its argument */
            PyObject* made = PyObject_CallOneArg(materialise, PyTuple_GET_ITEM(open, 0));
            Py_DECREF(open);
            if (made == NULL) {
                goto done;
            }
            Py_DECREF(made);
        }
        Py_CLEAR(buffers);
    }
    res = L.fused->tp_alloc(L.fused, 0);
    buffers = res == NULL ? NULL : tracer_attr(n_buffers);
    if (buffers == NULL) {
        goto done;
    }
    PyObject* count = PyLong_FromSsize_t(PyObject_Length(buffers));
    PyObject* entry = count == NULL ? NULL : PyTuple_Pack(9, res, ins, name, decl, hit, shape, count, fuse, buffers);
    Py_XDECREF(count);
    if (entry == NULL) {
        goto done;
    }
    if (PyList_SetItem(open_entry, 0, entry) == 0) { /* steals entry */
        result = Py_NewRef(res);
    }
done:
    Py_DECREF(src);
    Py_XDECREF(decl);
    Py_XDECREF(name);
    Py_XDECREF(ins);
    Py_XDECREF(res);
    Py_XDECREF(buffers);
    return result;
}

/* matmul_fast.fresh_matmul(stationary, moving, loc, frame): its FusedResult path in C, the rest in Python. */
PyObject* klaccel_fresh_matmul(PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 4 || !PyFrame_Check(args[3]) || !Py_IS_TYPE(args[0], L.tensor) || !Py_IS_TYPE(args[1], L.tensor) ||
        !memos_intact()) {
        return PyObject_Vectorcall(fresh_py, args, nargs, NULL);
    }
    PyObject *s = args[0], *m = args[1];
    PyObject* fuse = fuse_answer(args[3]);
    if (fuse == NULL && PyErr_Occurred()) {
        return NULL;
    }
    int fused = fuse == NULL ? 0 : PyObject_IsTrue(fuse);
    PyObject *sd = SLOT(s, L.t_dims), *md = SLOT(m, L.t_dims), *sb = SLOT(s, L.t_buf), *mb = SLOT(m, L.t_buf);
    if (fused <= 0 || sd == NULL || md == NULL || sb == NULL || mb == NULL || !Py_IS_TYPE(sb, L.buffer) ||
        !Py_IS_TYPE(mb, L.buffer) || SLOT(s, L.t_off) == NULL || SLOT(m, L.t_off) == NULL ||
        SLOT(s, L.t_dtype) == NULL || SLOT(m, L.t_dtype) == NULL || SLOT(sb, L.b_rdims) == NULL ||
        SLOT(mb, L.b_rdims) == NULL || SLOT(sb, L.b_rap) == NULL || SLOT(mb, L.b_rap) == NULL) {
        /* not a fused `+=` (or a slot not set: Python raises the error) */
        return fused < 0 ? NULL : PyObject_Vectorcall(fresh_py, args, nargs, NULL);
    }
    /* The memo entry of this pair of layouts: the last one, else _PAIRS'. */
    PyObject* e = PyList_GET_ITEM(last, 0);
    if (!PyTuple_CheckExact(e) || PyTuple_GET_SIZE(e) < 10) {
        return PyObject_Vectorcall(fresh_py, args, nargs, NULL);
    }
    if (PyTuple_GET_ITEM(e, 0) != sd || PyTuple_GET_ITEM(e, 1) != md) {
        PyObject* key = PyTuple_Pack(2, sd, md);
        e = key == NULL ? NULL : PyDict_GetItemWithError(pairs, key);
        Py_XDECREF(key);
        if (e == NULL) {
            return PyErr_Occurred() ? NULL : Py_NewRef(Py_None);
        }
        if (!PyTuple_CheckExact(e) || PyTuple_GET_SIZE(e) < 10) {
            return PyObject_Vectorcall(fresh_py, args, nargs, NULL);
        }
        PyList_SetItem(last, 0, Py_NewRef(e));
    }
    /* What a buffer fixes, compared once per pair of buffers; what may change, at every matmul. */
    if (PyList_GET_ITEM(fixed, 0) != sb || PyList_GET_ITEM(fixed, 1) != mb || PyList_GET_ITEM(fixed, 2) != e) {
        PyObject* fields[6] = {SLOT(sb, L.b_pstride), SLOT(mb, L.b_pstride), SLOT(sb, L.b_dtype),
                               SLOT(mb, L.b_dtype),   SLOT(sb, L.b_memory),  SLOT(mb, L.b_memory)};
        int same = all_equal(fields, PyTuple_GET_ITEM(e, 8), 6);
        if (same <= 0) {
            return same < 0 ? NULL : Py_NewRef(Py_None);
        }
        PyList_SetItem(fixed, 0, Py_NewRef(sb));
        PyList_SetItem(fixed, 1, Py_NewRef(mb));
        PyList_SetItem(fixed, 2, Py_NewRef(e));
    }
    PyObject* values = tracer_attr(n_values);
    if (values == NULL) {
        return NULL;
    }
    PyObject* fields[12] = {SLOT(s, L.t_dtype),
                            SLOT(m, L.t_dtype),
                            SLOT(s, L.t_shape),
                            SLOT(m, L.t_shape),
                            SLOT(s, L.t_checks),
                            SLOT(m, L.t_checks),
                            SLOT(sb, L.b_written),
                            SLOT(mb, L.b_written),
                            SLOT(sb, L.b_zeroed),
                            SLOT(mb, L.b_zeroed),
                            values,
                            PyList_GET_ITEM(indirect_seen, 0)};
    int same = all_equal(fields, PyTuple_GET_ITEM(e, 9), 12);
    Py_DECREF(values);
    if (same <= 0) {
        return same < 0 ? NULL : Py_NewRef(Py_None);
    }
    PyObject* hit = PyTuple_GET_ITEM(e, 6); /* emit._fresh's entry of the result tile */
    if (!PyTuple_CheckExact(hit) || PyTuple_GET_SIZE(hit) < 5) {
        return PyObject_Vectorcall(fresh_py, args, nargs, NULL);
    }
    Py_INCREF(e); /* held while var_name or materialise run Python code */
    PyObject* res = record_fused(args, e, fuse);
    Py_DECREF(e);
    return res;
}

/* matmul_fused.into_sum when the region's sum goes on (its key is there): the destination operand (new reference);
 * Py_None (new) when into_sum itself must decide; NULL on an error. */
static PyObject* sum_goes_on(PyObject* ins, PyObject* db, PyObject* apn, PyObject* dtype) {
    PyObject* ap = PySequence_GetItem(apn, 0);
    if (ap == NULL) {
        return NULL;
    }
    PyObject* keys = SLOT(db, L.b_mm_keys);
    int known = 0;
    if (keys != NULL && keys != Py_None && PyTuple_Check(ap) && PyTuple_GET_SIZE(ap) >= 4) {
        PyObject* key = PyTuple_Pack(2, PyTuple_GET_ITEM(ap, 1), PyTuple_GET_ITEM(ap, 3));
        known = key == NULL ? -1 : PySequence_Contains(keys, key);
        Py_XDECREF(key);
    }
    if (known <= 0) {
        Py_DECREF(ap);
        if (known < 0) {
            return NULL;
        }
        PyObject* args[4] = {ins, db, apn, dtype};
        return PyObject_Vectorcall(into_sum_py, args, 4, NULL);
    }
    /* The matmul's attrs with accumulate=True: mm_attrs, its shared pair looked up first. */
    PyObject* attrs = SLOT(ins, L.i_attrs);
    PyObject* id = attrs == NULL ? NULL : PyLong_FromVoidPtr(attrs);
    PyObject* pair = id == NULL ? NULL : PyDict_GetItemWithError(mm_shared, id);
    Py_XDECREF(id);
    PyObject* accumulating = pair != NULL                        ? PyObject_GetItem(pair, Py_True)
                             : PyErr_Occurred() || attrs == NULL ? NULL
                                                                 : call2(mm_attrs, attrs, Py_True);
    PyObject* n = accumulating == NULL ? NULL : PySequence_GetItem(apn, 1);
    PyObject* size = n == NULL ? NULL : PyObject_GetItem(sizes, dtype);
    PyObject* nbytes = size == NULL ? NULL : PyNumber_Multiply(n, size);
    Py_XDECREF(size);
    int same = nbytes == NULL || SLOT(ins, L.i_nbytes) == NULL
                   ? -1
                   : PyObject_RichCompareBool(nbytes, SLOT(ins, L.i_nbytes), Py_EQ);
    if (same < 0) {
        Py_DECREF(ap);
        Py_XDECREF(accumulating);
        Py_XDECREF(n);
        Py_XDECREF(nbytes);
        return NULL;
    }
    set_slot(ins, L.i_attrs, accumulating);
    if (!same) {
        set_slot(ins, L.i_nbytes, nbytes);
    } else {
        Py_DECREF(nbytes);
    }
    set_slot(ins, L.i_elements, n);
    put_slot(db, L.b_written, Py_True);
    return ap;
}

/* accumulate_fused(value, dst)'s checks: dst a whole PSUM tile with its cached operand, out of value mode. */
static int whole_psum_tile(PyObject* dst, PyObject* db, PyObject* entry) {
    PyObject* values = tracer_attr(n_values);
    if (values == NULL) {
        return -1;
    }
    PyObject* fields[3] = {SLOT(db, L.b_memory), SLOT(dst, L.t_off), values};
    int ok = SLOT(db, L.b_rap) != Py_None && SLOT(dst, L.t_dims) == SLOT(db, L.b_rdims)
                 ? all_equal(fields, whole_psum, 3)
                 : 0;
    Py_DECREF(values);
    if (ok > 0) {
        ok = SLOT(dst, L.t_dtype) != NULL && SLOT(db, L.b_dtype) != NULL && SLOT(dst, L.t_shape) != NULL
                 ? PyObject_RichCompareBool(SLOT(dst, L.t_dtype), SLOT(db, L.b_dtype), Py_EQ)
                 : 0;
    }
    if (ok > 0) {
        ok = PyObject_RichCompareBool(PyTuple_GET_ITEM(entry, 5), SLOT(dst, L.t_shape), Py_EQ);
    }
    return ok;
}

/* Tensor.__iadd__: `dst += value` for the open FusedResult value, when the sum of dst's region goes on. */
static PyObject* tensor_iadd(PyObject* self, PyObject* value) {
    if (!memos_intact()) {
        return call2(iadd_py, self, value);
    }
    PyObject* entry = PyList_GET_ITEM(open_entry, 0);
    PyObject* db = PyObject_TypeCheck(self, L.tensor) ? SLOT(self, L.t_buf) : NULL;
    if (!Py_IS_TYPE(value, L.fused) || !PyTuple_CheckExact(entry) || PyTuple_GET_SIZE(entry) != 9 ||
        PyTuple_GET_ITEM(entry, 0) != value || db == NULL || !Py_IS_TYPE(db, L.buffer) || SLOT(db, L.b_rap) == NULL ||
        SLOT(db, L.b_rdims) == NULL || SLOT(self, L.t_dims) == NULL) {
        return call2(iadd_py, self, value);
    }
    int ok = whole_psum_tile(self, db, entry);
    if (ok <= 0) {
        return ok < 0 ? NULL : call2(iadd_py, self, value);
    }
    Py_INCREF(entry);
    PyObject* ins = PyTuple_GET_ITEM(entry, 1);
    PyObject* ap =
        Py_IS_TYPE(ins, L.instr) ? sum_goes_on(ins, db, SLOT(db, L.b_rap), SLOT(self, L.t_dtype)) : Py_NewRef(Py_None);
    if (ap == NULL || ap == Py_None) {
        Py_DECREF(entry);
        Py_XDECREF(ap);
        return ap == NULL ? NULL : call2(iadd_py, self, value);
    }
    if (PyList_SetItem(open_entry, 0, Py_NewRef(Py_None)) < 0) {
        Py_DECREF(entry);
        Py_DECREF(ap);
        return NULL;
    }
    PyObject* dst = PyTuple_Pack(1, ap);
    Py_DECREF(ap);
    if (dst == NULL) {
        Py_DECREF(entry);
        return NULL;
    }
    set_slot(ins, L.i_dst, dst);
    int stored = PyObject_RichCompareBool(PyTuple_GET_ITEM(entry, 7), plus_equals_stored, Py_EQ);
    Py_DECREF(entry);
    if (stored < 0) {
        return NULL;
    }
    if (stored) { /* inplace_op's ending, answered at the call: the STORE_SUBSCR that follows has nothing to do */
        put_slot(self, L.t_inplace, Py_True);
    }
    return Py_NewRef(self);
}

/* Tensor.__setitem__: `t[k] = x` right after `t[k] += x` wrote t[k] (x.inplace) has nothing to do. */
static PyObject* tensor_setitem(PyObject* self, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs == 2 && Py_IS_TYPE(args[1], L.tensor)) {
        PyObject *value = args[1], *buf = SLOT(value, L.t_buf);
        if (buf != NULL && buf != pending && SLOT(value, L.t_inplace) == Py_True) {
            put_slot(value, L.t_inplace, Py_False);
            Py_RETURN_NONE;
        }
    }
    PyObject* call[3] = {self, nargs > 0 ? args[0] : NULL, nargs > 1 ? args[1] : NULL};
    return PyObject_Vectorcall(setitem_py, call, nargs + 1, NULL);
}

static PyObject* fresh_matmul(PyObject* module, PyObject* const* args, Py_ssize_t nargs) {
    (void)module;
    return klaccel_fresh_matmul(args, nargs);
}

static PyMethodDef fresh_def = {"fresh_matmul", (PyCFunction)(void (*)(void))fresh_matmul, METH_FASTCALL,
                                "matmul_fast.fresh_matmul (kltrace._klaccel)"};
static PyMethodDef iadd_def = {"__iadd__", (PyCFunction)tensor_iadd, METH_O, "t += x (kltrace._klaccel)"};
static PyMethodDef setitem_def = {"__setitem__", (PyCFunction)(void (*)(void))tensor_setitem, METH_FASTCALL,
                                  "t[k] = x (kltrace._klaccel)"};

int matmul_install(PyObject* parts, PyObject* out) {
    struct {
        const char* name;
        PyObject** out;
    } kept[] = {
        {"_last", &last},
        {"_PAIRS", &pairs},
        {"_fixed", &fixed},
        {"T", &tracer},
        {"INDIRECT_SEEN", &indirect_seen},
        {"_PLUS_EQUALS", &plus_equals},
        {"_open", &open_entry},
        {"materialise", &materialise},
        {"fresh_matmul", &fresh_py},
        {"iadd", &iadd_py},
        {"setitem", &setitem_py},
        {"into_sum", &into_sum_py},
        {"_MM_SHARED", &mm_shared},
        {"mm_attrs", &mm_attrs},
        {"SIZES", &sizes},
        {"_WHOLE_PSUM", &whole_psum},
        {"PLUS_EQUALS_STORED", &plus_equals_stored},
        {"_PENDING", &pending},
    };
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; ++i) {
        if (keep_part(parts, kept[i].name, kept[i].out)) {
            return -1;
        }
    }
    if (!PyList_CheckExact(last) || PyList_GET_SIZE(last) < 1 || !PyList_CheckExact(fixed) ||
        PyList_GET_SIZE(fixed) < 3 || !PyList_CheckExact(open_entry) || PyList_GET_SIZE(open_entry) < 1 ||
        !PyList_CheckExact(indirect_seen) || PyList_GET_SIZE(indirect_seen) < 1 || !PyDict_Check(pairs) ||
        !PyDict_Check(plus_equals) || !PyDict_Check(mm_shared)) {
        PyErr_SetString(PyExc_TypeError, "install: a matmul memo is not of the expected kind");
        return -1;
    }
    if (intern_name(&n_values, "values") || intern_name(&n_names, "_names") || intern_name(&n_var_name, "var_name") ||
        intern_name(&n_instrs, "instrs") || intern_name(&n_iter_tuple, "iter_tuple") || intern_name(&n_pid, "pid") ||
        intern_name(&n_buffers, "buffers") || intern_name(&s_nc_matmul, "nc_matmul") ||
        intern_name(&s_tensor, "tensor") || intern_name(&s_matmul, "matmul")) {
        return -1;
    }
    if (zero == NULL && (zero = PyLong_FromLong(0)) == NULL) {
        return -1;
    }
    if (no_decl == NULL && (no_decl = Py_BuildValue("(ii)", 0, 0)) == NULL) {
        return -1;
    }
    PyObject* fresh = PyCFunction_New(&fresh_def, NULL);
    int failed = fresh == NULL || PyDict_SetItemString(out, "fresh_matmul", fresh);
    Py_XDECREF(fresh);
    return failed || add_method(out, "iadd", &iadd_def) || add_method(out, "setitem", &setitem_def) ? -1 : 0;
}
