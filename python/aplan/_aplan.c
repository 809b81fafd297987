/*
 * aplan._aplan: the CPython extension under the `aplan` package, a thin layer over the public C API (the headers
 * of include/aplan) and the host layer the CLI is built on (src/host/host.h: what the tool and the package share,
 * so that a figure is computed by one piece of code for both) and nothing else: no struct is restated in Python.
 * Buffers travel between the functions below as a bytes object holding an array of aplan_buffer (made by
 * pack_buffers or by the readers, concatenated by Python, read only here), and TFLM's tensor ids as an array of
 * aplan_tflite_id, so a change to a C struct is a recompile, never a silent mismatch.
 *
 * Errors: a failure of the library is raised through the factory the package registers at import
 * (_set_error_factory): factory(status, message, context) returns the exception to raise (aplan.Error's subclass
 * for the status and the context: "input", "verify", "plan", "usage", "tflm"). Python's own TypeError and
 * OverflowError are used for arguments of the wrong type or past 64 bits.
 *
 * Memory: every scratch and output array is allocated here (PyMem_RawMalloc, usable without the GIL; the host
 * layer's with malloc) and freed before the function returns; Python objects returned are new references owned by
 * the caller.
 *
 * Sessions (session) run `aplan plan` through the host layer with the GIL released, a Ctrl-C stopping them through
 * aplan_host_session.interrupt as below, and keep it in a capsule for the host writers (session_write).
 *
 * Planning (plan) releases the GIL while the library runs. Its stop callback reads CLOCK_MONOTONIC (the clock of
 * time.monotonic()) against the deadline at every call, and at most every SIGNAL_CHECK_NS takes the GIL back to run
 * PyErr_CheckSignals: a Ctrl-C (KeyboardInterrupt, or any exception a signal handler raises) stops the search there,
 * and plan returns NULL with that exception set, its offsets and scratch freed: nothing half-made is returned.
 */
#define PY_SSIZE_T_CLEAN
#define _GNU_SOURCE /* open_memstream */
#include <Python.h>

#include <stdint.h>
#include <string.h>
#include <time.h>

#include "aplan/aplan.h"
#include "aplan/csv.h"
#include "aplan/strategies.h"
#include "aplan/tflite.h"
#include "aplan/tflm.h"
#include "host/host.h"

/* How often (at most) a running plan takes the GIL back to look for a signal: 10 ms, so a Ctrl-C stops it well
 * within 0.1 s while the GIL round trip (about a microsecond) costs nothing measurable. */
#define SIGNAL_CHECK_NS 10000000LL

static PyObject *error_factory = NULL; /* set by _set_error_factory; owned here */

/* Raise the exception the factory makes for (status, message, context); always returns NULL. */
static PyObject *raise_status(aplan_status status, const char *message, const char *context) {
    if (error_factory == NULL) {
        PyErr_Format(PyExc_RuntimeError, "%s (status %d)", message, (int)status);
        return NULL;
    }
    PyObject *exc = PyObject_CallFunction(error_factory, "iss", (int)status, message, context);
    if (exc != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
    return NULL;
}

static PyObject *set_error_factory(PyObject *self, PyObject *factory) {
    (void)self;
    if (!PyCallable_Check(factory)) {
        PyErr_SetString(PyExc_TypeError, "the error factory must be callable");
        return NULL;
    }
    Py_INCREF(factory);
    Py_XSETREF(error_factory, factory);
    Py_RETURN_NONE;
}

/* Heap memory for one library call, APLAN_SCRATCH_ALIGN aligned (malloc's alignment covers 8 on every host). */
static void *scratch_new(size_t bytes) { return PyMem_RawMalloc(bytes > 0 ? bytes : 1u); }

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000LL + (int64_t)t.tv_nsec;
}

/* ---------------------------------------------------------------------------------------------------------------- */
/* The library's facts                                                                                               */

static PyObject *py_version(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    return PyUnicode_FromString(aplan_version());
}

/* Every status code the header declares, by its C name, for aplan.Status. */
static PyObject *py_statuses(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    static const struct {
        const char *name;
        aplan_status value;
    } all[] = {
#define S(x) {#x, APLAN_##x}
        S(OK), S(E_INVALID_ARG), S(E_TOO_MANY_BUFFERS), S(E_BAD_ALIGNMENT), S(E_BAD_LIFETIME),
        S(E_MISALIGNED_OFFSET), S(E_SIZE_OVERFLOW), S(E_CAPACITY_EXCEEDED), S(E_SCRATCH_TOO_SMALL),
        S(E_SCRATCH_MISALIGNED), S(E_UNKNOWN_STRATEGY), S(E_UNSUPPORTED_VERSION), S(E_OFFSET_MISSING),
        S(E_UNPLACED), S(E_FIXED_MOVED), S(E_OUT_OF_ARENA), S(E_ARENA_MISMATCH), S(E_OVERLAP), S(E_FIXED_OVERLAP),
        S(E_PLAN_REJECTED), S(E_STRATEGY_FAILED), S(E_OUT_OF_MEMORY), S(E_BAD_REGION), S(E_WRONG_REGION),
        S(E_FORMAT_TRUNCATED), S(E_FORMAT_BAD_OFFSET), S(E_FORMAT_BAD_VALUE), S(E_FORMAT_UNSUPPORTED),
        S(E_FORMAT_BAD_METADATA), S(E_FORMAT_SYNTAX), S(E_FORMAT_UNKNOWN), S(E_OUTPUT_TOO_SMALL),
#undef S
    };
    PyObject *list = PyList_New(0);
    for (size_t k = 0; list != NULL && k < sizeof all / sizeof all[0]; k++) {
        PyObject *row = Py_BuildValue("(sis)", all[k].name, (int)all[k].value, aplan_status_str(all[k].value));
        if (row == NULL || PyList_Append(list, row) != 0) Py_CLEAR(list);
        Py_XDECREF(row);
    }
    return list;
}

/* [(name, description, searches, in_auto)] in registry order. */
static PyObject *py_strategies(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list != NULL && i < aplan_strategy_count(); i++) {
        const aplan_strategy *s = aplan_strategy_at(i);
        bool in_auto = false;
        for (size_t k = 0; k < aplan_strategy_auto_count(); k++) in_auto = in_auto || aplan_strategy_auto_at(k) == s;
        PyObject *row = Py_BuildValue("(ssOO)", s->name, s->description, aplan_strategy_searches(s) ? Py_True : Py_False,
                                      in_auto ? Py_True : Py_False);
        if (row == NULL || PyList_Append(list, row) != 0) Py_CLEAR(list);
        Py_XDECREF(row);
    }
    return list;
}

/* The names auto runs, in its tie order. */
static PyObject *py_auto_strategies(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list != NULL && i < aplan_strategy_auto_count(); i++) {
        PyObject *name = PyUnicode_FromString(aplan_strategy_auto_at(i)->name);
        if (name == NULL || PyList_Append(list, name) != 0) Py_CLEAR(list);
        Py_XDECREF(name);
    }
    return list;
}

static PyObject *py_type_name(PyObject *self, PyObject *arg) {
    (void)self;
    unsigned long type = PyLong_AsUnsignedLong(arg);
    if (type == (unsigned long)-1 && PyErr_Occurred()) return NULL;
    const char *name = type <= UINT32_MAX ? aplan_tflite_type_name((uint32_t)type) : NULL;
    if (name == NULL) Py_RETURN_NONE;
    return PyUnicode_FromString(name);
}

/* ---------------------------------------------------------------------------------------------------------------- */
/* Buffers                                                                                                           */

/* One value of a column: an int in 0 .. 2^64 - 1 (None gives none_value when allowed). -1 with an exception set on
 * failure: TypeError for a non-integer, BadInputError ("sizes[3] is -1: ...") for a value out of range. */
static int column_value(PyObject *item, const char *column, Py_ssize_t i, bool none_ok, uint64_t none_value,
                        uint64_t *out) {
    if (item == Py_None && none_ok) {
        *out = none_value;
        return 0;
    }
    if (!PyLong_Check(item)) {
        PyErr_Format(PyExc_TypeError, "%s[%zd] is %.60R, not an int", column, i, item);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(item);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        char text[200];
        PyObject *repr = PyObject_Repr(item);
        const char *r = repr != NULL ? PyUnicode_AsUTF8(repr) : NULL;
        snprintf(text, sizeof text, "%s[%zd] is %.60s: not in 0 .. 2^64 - 1", column, i, r != NULL ? r : "?");
        Py_XDECREF(repr);
        PyErr_Clear();
        raise_status(APLAN_E_INVALID_ARG, text, "input");
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

/* pack_buffers(sizes, lowers, uppers, alignments, offsets) -> bytes of aplan_buffer[n]. alignments and offsets may
 * be None (all 0 = the problem's default / all free) and hold None entries (the same, per buffer). O(n). */
static PyObject *py_pack_buffers(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *cols[5];
    if (!PyArg_ParseTuple(args, "OOOOO", &cols[0], &cols[1], &cols[2], &cols[3], &cols[4])) return NULL;
    static const char *const names[5] = {"sizes", "lowers", "uppers", "alignments", "offsets"};
    PyObject *fast[5] = {NULL, NULL, NULL, NULL, NULL};
    PyObject *out = NULL;
    Py_ssize_t n = 0;
    for (int c = 0; c < 5; c++) {
        if (c >= 3 && cols[c] == Py_None) continue;
        fast[c] = PySequence_Fast(cols[c], "the buffers' columns must be sequences");
        if (fast[c] == NULL) goto done;
        Py_ssize_t len = PySequence_Fast_GET_SIZE(fast[c]);
        if (c == 0) {
            n = len;
        } else if (len != n) {
            char text[160];
            snprintf(text, sizeof text, "%s has %zd entries and sizes %zd: one each per buffer", names[c], len, n);
            raise_status(APLAN_E_INVALID_ARG, text, "usage");
            goto done;
        }
    }
    if ((size_t)n > APLAN_MAX_BUFFERS) {
        raise_status(APLAN_E_TOO_MANY_BUFFERS, "more buffers than APLAN_MAX_BUFFERS", "input");
        goto done;
    }
    out = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(aplan_buffer));
    if (out == NULL) goto done;
    aplan_buffer *b = (aplan_buffer *)PyBytes_AS_STRING(out);
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t v[5] = {0, 0, 0, 0, APLAN_NO_OFFSET};
        for (int c = 0; c < 5; c++) {
            if (fast[c] == NULL) continue;
            if (column_value(PySequence_Fast_GET_ITEM(fast[c], i), names[c], i, c >= 3, c == 4 ? APLAN_NO_OFFSET : 0,
                             &v[c]) != 0) {
                Py_CLEAR(out);
                goto done;
            }
        }
        b[i] = (aplan_buffer){v[0], v[1], v[2], v[3], v[4]};
    }
done:
    for (int c = 0; c < 5; c++) Py_XDECREF(fast[c]);
    return out;
}

/* Reads a bytes object of aplan_buffer; false with TypeError when its length is not a whole number of them. */
static bool get_buffers(PyObject *bytes, const aplan_buffer **buffers, size_t *count) {
    if (!PyBytes_Check(bytes) || PyBytes_GET_SIZE(bytes) % (Py_ssize_t)sizeof(aplan_buffer) != 0) {
        PyErr_SetString(PyExc_TypeError, "buffers must be bytes made by aplan (pack_buffers or a reader)");
        return false;
    }
    *buffers = (const aplan_buffer *)PyBytes_AS_STRING(bytes);
    *count = (size_t)PyBytes_GET_SIZE(bytes) / sizeof(aplan_buffer);
    return true;
}

/* unpack_buffers(bytes) -> (sizes, lowers, uppers, alignments, offsets) lists; None for 0 alignments and free
 * offsets. */
static PyObject *py_unpack_buffers(PyObject *self, PyObject *bytes) {
    (void)self;
    const aplan_buffer *b;
    size_t n;
    if (!get_buffers(bytes, &b, &n)) return NULL;
    PyObject *lists[5] = {NULL, NULL, NULL, NULL, NULL};
    for (int c = 0; c < 5; c++) {
        lists[c] = PyList_New((Py_ssize_t)n);
        if (lists[c] == NULL) goto fail;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t v[5] = {b[i].size, b[i].lower, b[i].upper, b[i].alignment, b[i].offset};
        for (int c = 0; c < 5; c++) {
            PyObject *o;
            if ((c == 3 && v[c] == 0) || (c == 4 && v[c] == APLAN_NO_OFFSET)) o = Py_NewRef(Py_None);
            else o = PyLong_FromUnsignedLongLong(v[c]);
            if (o == NULL) goto fail;
            PyList_SET_ITEM(lists[c], (Py_ssize_t)i, o);
        }
    }
    return Py_BuildValue("(NNNNN)", lists[0], lists[1], lists[2], lists[3], lists[4]);
fail:
    for (int c = 0; c < 5; c++) Py_XDECREF(lists[c]);
    return NULL;
}

/* buffers_csv(bytes, ids or None) -> bytes: the problem as Problem.to_csv() writes it (id,lower,upper,size,
 * alignment,offset; -1 for the problem's alignment and for a free offset; ids "0", "1", ... when None), written here
 * because aplan.plan hands a Problem built from Python lists to the host session as that table: in Python the
 * formatting cost more than the planning (6 ms for 10,000 buffers). O(n + the ids' length). */
static PyObject *py_buffers_csv(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *bytes, *ids;
    if (!PyArg_ParseTuple(args, "SO", &bytes, &ids)) return NULL;
    const aplan_buffer *b;
    size_t n;
    if (!get_buffers(bytes, &b, &n)) return NULL;
    if (ids != Py_None && (!PyList_Check(ids) || (size_t)PyList_GET_SIZE(ids) != n)) {
        PyErr_SetString(PyExc_TypeError, "ids must be None or a list of str, one per buffer");
        return NULL;
    }
    static const char header[] = "id,lower,upper,size,alignment,offset\n";
    enum { ROW = 6 * 21 }; /* five numbers of at most 20 digits (or -1), six separators, the index as an id */
    size_t total = sizeof header;
    for (size_t i = 0; i < n && ids != Py_None; i++) {
        Py_ssize_t len;
        if (PyUnicode_AsUTF8AndSize(PyList_GET_ITEM(ids, (Py_ssize_t)i), &len) == NULL) return NULL;
        total += (size_t)len;
    }
    if (n > (PY_SSIZE_T_MAX - total) / ROW) return PyErr_NoMemory();
    total += n * ROW;
    char *text = PyMem_Malloc(total);
    if (text == NULL) return PyErr_NoMemory();
    size_t at = sizeof header - 1u;
    memcpy(text, header, at);
    for (size_t i = 0; i < n; i++) {
        if (ids != Py_None) {
            Py_ssize_t len;
            const char *id = PyUnicode_AsUTF8AndSize(PyList_GET_ITEM(ids, (Py_ssize_t)i), &len);
            memcpy(text + at, id, (size_t)len);
            at += (size_t)len;
        } else {
            at += (size_t)snprintf(text + at, total - at, "%zu", i);
        }
        char align[24] = "-1", offset[24] = "-1";
        if (b[i].alignment != 0) snprintf(align, sizeof align, "%llu", (unsigned long long)b[i].alignment);
        if (b[i].offset != APLAN_NO_OFFSET) snprintf(offset, sizeof offset, "%llu", (unsigned long long)b[i].offset);
        at += (size_t)snprintf(text + at, total - at, ",%llu,%llu,%llu,%s,%s\n", (unsigned long long)b[i].lower,
                               (unsigned long long)b[i].upper, (unsigned long long)b[i].size, align, offset);
    }
    PyObject *out = PyBytes_FromStringAndSize(text, (Py_ssize_t)at);
    PyMem_Free(text);
    return out;
}

/* The problem every function below takes: (buffers bytes, alignment, capacity or None, flags). */
static bool problem_from(PyObject *buffers, unsigned long long alignment, PyObject *capacity, unsigned int flags,
                         aplan_problem *p) {
    const aplan_buffer *b;
    size_t n;
    if (!get_buffers(buffers, &b, &n)) return false;
    aplan_problem_init(p, b, n);
    p->alignment = alignment;
    p->flags = flags;
    if (capacity != Py_None) {
        unsigned long long c = PyLong_AsUnsignedLongLong(capacity);
        if (c == (unsigned long long)-1 && PyErr_Occurred()) return false;
        p->capacity = c;
    }
    return true;
}

/* "invalid problem: <the report>": the report's text (aplan_report_format), with the ids of the buffers it names
 * when ids (a sequence of str, or None) has them. */
static void describe(const aplan_report *r, PyObject *ids, char *out, size_t size) {
    char detail[200];
    (void)aplan_report_format(r, detail, sizeof detail);
    size_t used = (size_t)snprintf(out, size, "%s", detail);
    const size_t at[2] = {r->buffer_a, r->buffer_b};
    for (int k = 0; k < 2 && ids != NULL && ids != Py_None && used < size; k++) {
        if (at[k] == APLAN_NO_BUFFER || (Py_ssize_t)at[k] >= PySequence_Size(ids)) continue;
        PyObject *id = PySequence_GetItem(ids, (Py_ssize_t)at[k]);
        const char *text = id != NULL && PyUnicode_Check(id) ? PyUnicode_AsUTF8(id) : NULL;
        if (text != NULL)
            used += (size_t)snprintf(out + used, size - used, "%s buffer %zu is '%s'", k == 0 ? ":" : ",", at[k], text);
        Py_XDECREF(id);
        PyErr_Clear();
    }
}

/* validate(buffers, alignment, capacity, flags, ids) -> None; raises BadInputError (or the status's class). */
static PyObject *py_validate(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *buffers, *capacity, *ids;
    unsigned long long alignment;
    unsigned int flags;
    if (!PyArg_ParseTuple(args, "OKOIO", &buffers, &alignment, &capacity, &flags, &ids)) return NULL;
    aplan_problem p;
    if (!problem_from(buffers, alignment, capacity, flags, &p)) return NULL;
    aplan_report r;
    aplan_report_clear(&r);
    aplan_status st = aplan_problem_validate(&p, &r);
    if (st != APLAN_OK) {
        char text[400], message[440];
        describe(&r, ids, text, sizeof text);
        snprintf(message, sizeof message, "invalid problem: %s", text);
        return raise_status(st, message, "input");
    }
    Py_RETURN_NONE;
}

/* lower_bound(buffers, alignment, capacity, flags) -> (bound, step). */
static PyObject *py_lower_bound(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *buffers, *capacity;
    unsigned long long alignment;
    unsigned int flags;
    if (!PyArg_ParseTuple(args, "OKOI", &buffers, &alignment, &capacity, &flags)) return NULL;
    aplan_problem p;
    if (!problem_from(buffers, alignment, capacity, flags, &p)) return NULL;
    p.capacity = APLAN_UNLIMITED; /* the bound is the bound; the capacity is plan's verdict */
    size_t bytes = 0;
    aplan_status st = aplan_lower_bound_scratch_size(&p, &bytes);
    void *scratch = st == APLAN_OK ? scratch_new(bytes) : NULL;
    if (st == APLAN_OK && scratch == NULL) return PyErr_NoMemory();
    uint64_t bound = 0, step = 0;
    if (st == APLAN_OK) {
        Py_BEGIN_ALLOW_THREADS
        st = aplan_lower_bound(&p, scratch, bytes, &bound, &step);
        Py_END_ALLOW_THREADS
    }
    PyMem_RawFree(scratch);
    if (st == APLAN_E_SIZE_OVERFLOW)
        return raise_status(st, "the lower bound passes 2^64 - 1 bytes: the buffers live at one step add up past it",
                            "input");
    if (st != APLAN_OK) return raise_status(st, aplan_status_str(st), "input");
    return Py_BuildValue("(KK)", (unsigned long long)bound, (unsigned long long)step);
}

/* Offsets from a sequence of int (None: unplaced) into a new array of count entries (PyMem_RawFree it). */
static uint64_t *offsets_from(PyObject *seq, size_t count) {
    PyObject *fast = PySequence_Fast(seq, "offsets must be a sequence");
    if (fast == NULL) return NULL;
    if ((size_t)PySequence_Fast_GET_SIZE(fast) != count) {
        char text[160];
        snprintf(text, sizeof text, "%zd offsets for %zu buffers: one each", PySequence_Fast_GET_SIZE(fast), count);
        Py_DECREF(fast);
        raise_status(APLAN_E_INVALID_ARG, text, "usage");
        return NULL;
    }
    uint64_t *out = PyMem_RawMalloc((count + 1u) * sizeof *out);
    if (out == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        if (column_value(PySequence_Fast_GET_ITEM(fast, (Py_ssize_t)i), "offsets", (Py_ssize_t)i, true,
                         APLAN_NO_OFFSET, &out[i]) != 0) {
            PyMem_RawFree(out);
            Py_DECREF(fast);
            return NULL;
        }
    }
    Py_DECREF(fast);
    return out;
}

/* verify(buffers, alignment, capacity, flags, ids, offsets, arena) -> (arena, aliased_pairs). arena None: the
 * highest end of the placed buffers. Raises VerificationError with the report's text (aplan_report_format). */
static PyObject *py_verify(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *buffers, *capacity, *ids, *offsets_seq, *arena_obj;
    unsigned long long alignment;
    unsigned int flags;
    if (!PyArg_ParseTuple(args, "OKOIOOO", &buffers, &alignment, &capacity, &flags, &ids, &offsets_seq, &arena_obj))
        return NULL;
    aplan_problem p;
    if (!problem_from(buffers, alignment, capacity, flags, &p)) return NULL;
    uint64_t *offsets = offsets_from(offsets_seq, p.count);
    if (offsets == NULL) return NULL;
    aplan_report r;
    aplan_report_clear(&r);
    aplan_status st = aplan_problem_validate(&p, &r);
    uint64_t arena = 0;
    if (arena_obj != Py_None) {
        unsigned long long a = PyLong_AsUnsignedLongLong(arena_obj);
        if (a == (unsigned long long)-1 && PyErr_Occurred()) {
            PyMem_RawFree(offsets);
            return NULL;
        }
        arena = a;
    } else if (st == APLAN_OK) {
        for (size_t i = 0; i < p.count; i++) { /* a sum past 2^64 - 1 is the verifier's to report (rule 4) */
            uint64_t size = aplan_buffer_size(&p, i);
            if (offsets[i] != APLAN_NO_OFFSET && offsets[i] <= UINT64_MAX - size && offsets[i] + size > arena)
                arena = offsets[i] + size;
        }
    }
    size_t bytes = 0;
    void *scratch = NULL;
    if (st == APLAN_OK) st = aplan_verify_scratch_size(&p, &bytes);
    if (st == APLAN_OK && (scratch = scratch_new(bytes)) == NULL) {
        PyMem_RawFree(offsets);
        return PyErr_NoMemory();
    }
    if (st == APLAN_OK) {
        Py_BEGIN_ALLOW_THREADS
        st = aplan_verify(&p, offsets, arena, scratch, bytes, &r);
        Py_END_ALLOW_THREADS
    }
    PyMem_RawFree(scratch);
    PyMem_RawFree(offsets);
    if (st != APLAN_OK) {
        char text[400];
        describe(&r, ids, text, sizeof text);
        return raise_status(st, text, "verify");
    }
    return Py_BuildValue("(Kn)", (unsigned long long)arena, (Py_ssize_t)r.aliased_pairs);
}

/* ---------------------------------------------------------------------------------------------------------------- */
/* Planning                                                                                                          */

typedef struct stop_state {
    PyThreadState *thread; /* the thread state saved while the GIL is released */
    int64_t deadline_ns;   /* INT64_MAX: none */
    int64_t next_signal_ns;
    bool stopped;          /* the deadline passed */
    bool interrupted;      /* a signal handler raised: its exception is set */
} stop_state;

static bool stop_check(void *context, uint64_t nodes) {
    (void)nodes;
    stop_state *s = context;
    if (s->interrupted) return true;
    int64_t now = now_ns();
    if (now >= s->next_signal_ns) {
        s->next_signal_ns = now + SIGNAL_CHECK_NS;
        PyEval_RestoreThread(s->thread);
        s->interrupted = PyErr_CheckSignals() != 0;
        s->thread = PyEval_SaveThread();
        if (s->interrupted) return true;
    }
    if (now >= s->deadline_ns) s->stopped = true;
    return s->stopped;
}

/*
 * plan(buffers, alignment, capacity, flags, ids, strategy, deadline, start) -> dict with status, status_name,
 * message, offsets (list, or None without a plan), arena, bound, outcome (aplan_outcome), nodes, unsearched,
 * best_node, out_of_time, goal_fit, seconds. deadline: time.monotonic() seconds at which a search stops, or None.
 * start: offsets of a valid plan to search from, or None. As the CLI runs one strategy: only a search is given the
 * capacity (goal FIT); a heuristic plans without it and its plan is judged after. Failures of the plan come back in
 * the dict (status); an unknown strategy raises UsageError, a signal its exception.
 */
static PyObject *py_plan(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *buffers, *capacity, *ids, *deadline_obj, *start_obj;
    unsigned long long alignment;
    unsigned int flags;
    const char *name;
    if (!PyArg_ParseTuple(args, "OKOIOsOO", &buffers, &alignment, &capacity, &flags, &ids, &name, &deadline_obj,
                          &start_obj))
        return NULL;
    aplan_problem p;
    if (!problem_from(buffers, alignment, capacity, flags, &p)) return NULL;
    const aplan_strategy *strategy = NULL;
    if (aplan_strategy_find(name, &strategy) != APLAN_OK) {
        char text[200];
        snprintf(text, sizeof text, "unknown strategy '%.80s' (see aplan.strategies())", name);
        return raise_status(APLAN_E_UNKNOWN_STRATEGY, text, "usage");
    }
    stop_state stop = {NULL, INT64_MAX, 0, false, false};
    if (deadline_obj != Py_None) {
        double d = PyFloat_AsDouble(deadline_obj);
        if (d == -1.0 && PyErr_Occurred()) return NULL;
        stop.deadline_ns = d >= 9.2e9 ? INT64_MAX : (int64_t)(d * 1e9);
    }
    const bool searches = aplan_strategy_searches(strategy);
    const bool fit = searches && p.capacity != APLAN_UNLIMITED;
    if (!fit) p.capacity = APLAN_UNLIMITED;
    uint64_t *start = NULL;
    if (start_obj != Py_None && (start = offsets_from(start_obj, p.count)) == NULL) return NULL;
    uint64_t *offsets = PyMem_RawMalloc((p.count + 1u) * sizeof *offsets);
    size_t bytes = 0;
    aplan_problem any = p;
    any.capacity = APLAN_UNLIMITED;
    aplan_status st = aplan_plan_scratch_size(strategy, &p, &bytes);
    if (st == APLAN_E_CAPACITY_EXCEEDED) st = aplan_plan_scratch_size(strategy, &any, &bytes);
    void *scratch = st == APLAN_OK ? scratch_new(bytes) : NULL;
    if (offsets == NULL || (st == APLAN_OK && scratch == NULL)) {
        PyMem_RawFree(offsets);
        PyMem_RawFree(scratch);
        PyMem_RawFree(start);
        return PyErr_NoMemory();
    }
    for (size_t i = 0; i <= p.count; i++) offsets[i] = APLAN_NO_OFFSET;
    aplan_search_options options;
    aplan_search_options_init(&options);
    options.goal = fit ? APLAN_GOAL_FIT : APLAN_GOAL_MINIMISE;
    options.start = start;
    options.stop = stop_check;
    options.context = &stop;
    /* As the CLI: the clock is read every 1024 nodes on small problems, more often on large ones. */
    options.check_every = p.count < 64u ? 1024u : p.count > 65536u ? 1u : (uint32_t)(65536u / p.count);
    aplan_result result;
    memset(&result, 0, sizeof result);
    int64_t t0 = now_ns();
    if (st == APLAN_OK) {
        stop.next_signal_ns = t0 + SIGNAL_CHECK_NS;
        stop.thread = PyEval_SaveThread();
        st = aplan_plan_search(strategy, &p, &options, scratch, bytes, offsets, &result);
        PyEval_RestoreThread(stop.thread);
    }
    double seconds = (double)(now_ns() - t0) / 1e9;
    PyMem_RawFree(scratch);
    PyMem_RawFree(start);
    if (stop.interrupted) { /* the handler's exception is set: nothing of the plan is returned */
        PyMem_RawFree(offsets);
        return NULL;
    }
    bool above = st == APLAN_E_CAPACITY_EXCEEDED && result.arena_size > p.capacity;
    bool planned = st == APLAN_OK || above;
    char message[400] = "";
    if (st != APLAN_OK && !above) describe(&result.report, ids, message, sizeof message);
    PyObject *offsets_list = Py_NewRef(Py_None);
    if (planned) {
        Py_DECREF(offsets_list);
        offsets_list = PyList_New((Py_ssize_t)p.count);
        for (size_t i = 0; offsets_list != NULL && i < p.count; i++) {
            PyObject *o = PyLong_FromUnsignedLongLong(offsets[i]);
            if (o == NULL) Py_CLEAR(offsets_list);
            else PyList_SET_ITEM(offsets_list, (Py_ssize_t)i, o);
        }
    }
    PyMem_RawFree(offsets);
    if (offsets_list == NULL) return NULL;
    return Py_BuildValue("{s:i,s:s,s:s,s:N,s:K,s:K,s:I,s:K,s:K,s:K,s:O,s:O,s:O,s:d}", "status", (int)st,
                         "status_name", aplan_status_str(st), "message", message, "offsets", offsets_list, "arena",
                         (unsigned long long)result.arena_size, "bound", (unsigned long long)result.lower_bound,
                         "outcome", (unsigned int)result.outcome, "nodes", (unsigned long long)result.nodes,
                         "unsearched", (unsigned long long)result.unsearched, "best_node",
                         (unsigned long long)result.best_node, "out_of_time", stop.stopped ? Py_True : Py_False,
                         "goal_fit", fit ? Py_True : Py_False, "searches", searches ? Py_True : Py_False, "seconds",
                         seconds);
}

/* ---------------------------------------------------------------------------------------------------------------- */
/* Sessions: `aplan plan` as the host layer runs it                                                                  */

/* A planning session kept for its writers: the input, the settings and every run, as `aplan plan` has them when it
 * writes (auto's runs already cut to the best, as the tool's table shows them). Owned by a capsule; freed with it. */
typedef struct session_box {
    aplan_host_input in;
    aplan_host_session s;
    aplan_host_options o;
    char *strategies;   /* o.strategies' text (owned) */
    char *target;       /* o.target's text (owned), or NULL */
    PyObject *data;     /* the bytes the input may point into (aplan_host_load_bytes keeps the caller's), or NULL */
    bool loaded;        /* in holds an input */
    bool started;       /* s was initialised */
} session_box;

#define SESSION_CAPSULE "aplan._aplan.session"

static void session_free(session_box *b) {
    if (b == NULL) return;
    if (b->started) aplan_host_session_free(&b->s);
    if (b->loaded) aplan_host_input_free(&b->in);
    PyMem_RawFree(b->strategies);
    PyMem_RawFree(b->target);
    Py_XDECREF(b->data);
    PyMem_RawFree(b);
}

static void session_capsule_free(PyObject *capsule) {
    session_free(PyCapsule_GetPointer(capsule, SESSION_CAPSULE));
}

static char *text_copy(const char *text) {
    size_t n = strlen(text) + 1u;
    char *copy = PyMem_RawMalloc(n);
    if (copy != NULL) memcpy(copy, text, n);
    return copy;
}

/* Raise the exception for a host error of kind (APLAN_HOST_*) with message: the class aplan.Error's hierarchy gives the
 * status and context it stands for (USAGE: UsageError, BAD_INPUT and REFUSED: BadInputError, NO_FIT:
 * DoesNotFitError, VERIFY: VerificationError, TOO_LARGE: TooLargeError, IO: OSError, INTERNAL: MemoryError when out
 * of memory, else Error). Always returns NULL. */
static PyObject *raise_host(int kind, const char *message) {
    if (message == NULL) message = "failed";
    switch (kind) {
    case APLAN_HOST_USAGE: return raise_status(APLAN_E_INVALID_ARG, message, "usage");
    case APLAN_HOST_BAD_INPUT:
    case APLAN_HOST_REFUSED: return raise_status(APLAN_E_INVALID_ARG, message, "input");
    case APLAN_HOST_NO_FIT: return raise_status(APLAN_E_CAPACITY_EXCEEDED, message, "plan");
    case APLAN_HOST_VERIFY: return raise_status(APLAN_E_INVALID_ARG, message, "verify");
    case APLAN_HOST_TOO_LARGE: return raise_status(APLAN_E_SIZE_OVERFLOW, message, "input");
    case APLAN_HOST_IO: PyErr_SetString(PyExc_OSError, message); return NULL;
    default:
        if (strcmp(message, "out of memory") == 0) return PyErr_NoMemory();
        return raise_status(APLAN_E_OUT_OF_MEMORY, message, "plan");
    }
}

/* aplan_host_session.interrupt while the GIL is released: at most every SIGNAL_CHECK_NS, take the GIL back and run
 * the signal handlers; true (for good) once one raised, its exception set. */
typedef struct interrupt_state {
    PyThreadState *thread; /* the thread state saved while the GIL is released */
    int64_t next_signal_ns;
    bool raised;
} interrupt_state;

static bool interrupt_check(void *state) {
    interrupt_state *i = state;
    if (i->raised) return true;
    int64_t now = now_ns();
    if (now < i->next_signal_ns) return false;
    i->next_signal_ns = now + SIGNAL_CHECK_NS;
    PyEval_RestoreThread(i->thread);
    i->raised = PyErr_CheckSignals() != 0;
    i->thread = PyEval_SaveThread();
    return i->raised;
}

/* Load the input, add a model's scratch requests and run the session as cli_cmd_plan does (commands.c: load_arg,
 * add_scratch, plan_input, run_strategies), without the GIL. APLAN_HOST_OK or a kind with message filled; with
 * *interrupted when a signal handler raised (its exception set, message empty). */
static int session_run(session_box *b, const char *name, const char *data, size_t size, bool tflm_lines,
                       interrupt_state *stop, char *message, size_t message_size) {
    aplan_host_error err = {0};
    int rc = data == NULL ? aplan_host_example(&b->in)
                          : aplan_host_load_bytes(name, data, size, &b->in, message, message_size);
    if (rc != APLAN_HOST_OK) {
        if (data == NULL) snprintf(message, message_size, "out of memory");
        return rc;
    }
    b->loaded = true;
    aplan_tflm_config c;
    rc = aplan_host_tflm_config(&b->o, &c, message, message_size);
    if (rc == APLAN_HOST_OK) rc = aplan_host_add_tflm_scratch(&b->in, &c, message, message_size, NULL);
    if (rc != APLAN_HOST_OK) return rc;
    if (b->in.kind == APLAN_HOST_INPUT_CSV && (b->in.csv_columns & APLAN_CSV_HAS_REGION) != 0) {
        snprintf(message, message_size, "%s: it has a 'region' column, which only regions read: leave the column out",
                 b->in.name);
        return APLAN_HOST_BAD_INPUT;
    }
    aplan_host_session_init(&b->s, &b->o, &b->in);
    b->started = true;
    aplan_host_whole_arena_capacity(&b->s);
    const double t0 = aplan_host_clock_ms(); /* the time limit's start: the input is read, as the tool's */
    rc = aplan_host_check_problem(&b->s, &err);
    if (rc == APLAN_HOST_OK) rc = aplan_host_check_fixed(&b->s, &err);
    if (rc == APLAN_HOST_OK) rc = aplan_host_compute_bound(&b->s, &err);
    if (rc == APLAN_HOST_OK) rc = aplan_host_select_strategies(b->o.strategies, &b->s, &err);
    if (rc != APLAN_HOST_OK) {
        const char *text = aplan_host_error_text(&err);
        snprintf(message, message_size, "%s", text != NULL ? text : "failed");
        aplan_host_error_clear(&err);
        return rc;
    }
    b->s.interrupt = interrupt_check;
    b->s.interrupt_state = stop;
    (void)aplan_host_run_strategies(&b->s, t0, tflm_lines && b->in.kind == APLAN_HOST_INPUT_TFLITE);
    b->s.interrupt = NULL;
    b->s.interrupt_state = NULL;
    return APLAN_HOST_OK;
}

/* One run as a dict: name, status, status_name, error (None when OK), planned, verified, searched, arena (None
 * without a plan), outcome (JSON's key, or None), nodes, seconds, offsets (list, or None). */
static PyObject *run_dict(const aplan_host_session *s, const aplan_host_run *r) {
    PyObject *offsets = Py_NewRef(Py_None);
    if (r->planned) {
        Py_DECREF(offsets);
        offsets = PyList_New((Py_ssize_t)s->input->count);
        for (size_t i = 0; offsets != NULL && i < s->input->count; i++) {
            PyObject *o = PyLong_FromUnsignedLongLong(r->offsets[i]);
            if (o == NULL) Py_CLEAR(offsets);
            else PyList_SET_ITEM(offsets, (Py_ssize_t)i, o);
        }
        if (offsets == NULL) return NULL;
    }
    const char *outcome = aplan_host_outcome_key(r);
    PyObject *arena = r->planned ? PyLong_FromUnsignedLongLong(r->result.arena_size) : Py_NewRef(Py_None);
    if (arena == NULL) {
        Py_DECREF(offsets);
        return NULL;
    }
    return Py_BuildValue("{s:s,s:i,s:s,s:z,s:O,s:O,s:O,s:N,s:z,s:K,s:d,s:N}", "name", r->strategy->name, "status",
                         (int)r->status, "status_name", aplan_status_str(r->status), "error",
                         r->status == APLAN_OK || r->error[0] == '\0' ? NULL : r->error, "planned",
                         r->planned ? Py_True : Py_False, "verified", r->verified ? Py_True : Py_False, "searched",
                         r->searched ? Py_True : Py_False, "arena", arena, "outcome", outcome, "nodes",
                         (unsigned long long)r->result.nodes, "seconds", r->millis / 1e3, "offsets", offsets);
}

/*
 * session(name, data, strategies, time_limit_ns, capacity, alignment, round_sizes, allow_alias, abi, kernels,
 * target) -> (capsule, dict): `aplan plan` on the input: data (bytes: a .tflite or CSV, recognised by content as the
 * tool does; None: the built-in example) named name, with the tool's settings (None or 0: not given, its default).
 * The dict: bound, bound_step, count, kind ("csv", "tflite", "example"), ids, buffers (bytes of aplan_buffer as
 * planned), runs (every run, run_dict), best (the index of the plan that fits, or None), smallest (the index of the
 * smallest plan, fitting or not, or None), capacity and whole_capacity (None: none). The capsule keeps the session for
 * session_write, auto's runs cut to the best (the tool's table). The GIL is released while it runs; a signal handler's
 * exception stops it and nothing is returned. Settings and inputs that fail raise (raise_host).
 */
static PyObject *py_session(PyObject *self, PyObject *args) {
    (void)self;
    const char *name, *strategies, *target;
    PyObject *data, *time_limit, *capacity, *alignment, *round_sizes;
    int alias, tflm_lines;
    unsigned int abi;
    int kernels;
    if (!PyArg_ParseTuple(args, "sOsOOOOpIizp", &name, &data, &strategies, &time_limit, &capacity, &alignment,
                          &round_sizes, &alias, &abi, &kernels, &target, &tflm_lines))
        return NULL;
    if (data != Py_None && !PyBytes_Check(data)) {
        PyErr_SetString(PyExc_TypeError, "data must be bytes or None");
        return NULL;
    }
    session_box *b = PyMem_RawCalloc(1, sizeof *b);
    if (b == NULL) return PyErr_NoMemory();
    b->strategies = text_copy(strategies);
    b->target = target != NULL ? text_copy(target) : NULL;
    if (b->strategies == NULL || (target != NULL && b->target == NULL)) {
        session_free(b);
        return PyErr_NoMemory();
    }
    aplan_host_options *o = &b->o;
    o->strategies = b->strategies;
    o->target = b->target;
    o->alias = alias != 0;
    if (time_limit != Py_None) {
        o->time_limit_ns = PyLong_AsUnsignedLongLong(time_limit);
        o->given |= APLAN_HOST_SET_TIME_LIMIT;
    }
    if (capacity != Py_None) {
        o->capacity = PyLong_AsUnsignedLongLong(capacity);
        o->given |= APLAN_HOST_SET_CAPACITY;
    }
    if (alignment != Py_None) {
        o->align = PyLong_AsUnsignedLongLong(alignment);
        o->given |= APLAN_HOST_SET_ALIGN;
    }
    if (round_sizes != Py_None) {
        o->round = PyObject_IsTrue(round_sizes) == 1;
        o->given |= APLAN_HOST_SET_ROUND;
    }
    if (abi != 0) {
        o->abi = abi;
        o->given |= APLAN_HOST_SET_ABI;
    }
    if (kernels >= 0) {
        o->kernels = (unsigned)kernels;
        o->given |= APLAN_HOST_SET_KERNELS;
    }
    if (PyErr_Occurred()) {
        session_free(b);
        return NULL;
    }
    if (aplan_host_option_regions(o, NULL) > 0) {
        session_free(b);
        char text[200];
        snprintf(text, sizeof text, "target '%.40s' has a memory map (regions), which aplan.plan does not plan yet: "
                 "use the aplan tool's plan --target", target);
        return raise_host(APLAN_HOST_USAGE, text);
    }
    if (data != Py_None) b->data = Py_NewRef(data);
    char message[1024] = "";
    interrupt_state stop = {NULL, 0, false};
    int rc;
    stop.next_signal_ns = now_ns() + SIGNAL_CHECK_NS;
    stop.thread = PyEval_SaveThread();
    rc = session_run(b, name, data == Py_None ? NULL : PyBytes_AS_STRING(data),
                     data == Py_None ? 0 : (size_t)PyBytes_GET_SIZE(data), tflm_lines != 0, &stop, message,
                     sizeof message);
    PyEval_RestoreThread(stop.thread);
    if (stop.raised || rc != APLAN_HOST_OK) { /* a handler's exception is set, or the failure is raised here */
        session_free(b);
        return stop.raised ? NULL : raise_host(rc, message);
    }
    const aplan_host_session *s = &b->s;
    const aplan_host_run *smallest = aplan_host_smallest_plan(s);
    /* auto's search, when it fits and is no larger, is the run shown (aplan_host_run_strategies' rule) */
    if (s->best != SIZE_MAX) smallest = &s->runs[s->best];
    PyObject *runs = PyList_New((Py_ssize_t)s->run_count);
    for (size_t i = 0; runs != NULL && i < s->run_count; i++) {
        PyObject *r = run_dict(s, &s->runs[i]);
        if (r == NULL) Py_CLEAR(runs);
        else PyList_SET_ITEM(runs, (Py_ssize_t)i, r);
    }
    PyObject *ids = runs != NULL ? PyList_New((Py_ssize_t)b->in.count) : NULL;
    for (size_t i = 0; ids != NULL && i < b->in.count; i++) {
        PyObject *t = PyUnicode_DecodeUTF8(b->in.ids[i], (Py_ssize_t)strlen(b->in.ids[i]), "surrogateescape");
        if (t == NULL) Py_CLEAR(ids);
        else PyList_SET_ITEM(ids, (Py_ssize_t)i, t);
    }
    if (runs == NULL || ids == NULL) {
        Py_XDECREF(runs);
        session_free(b);
        return NULL;
    }
    static const char *const kinds[] = {"csv", "tflite", "example"};
    PyObject *best = s->best != SIZE_MAX ? PyLong_FromSize_t(s->best) : Py_NewRef(Py_None);
    PyObject *small = smallest != NULL ? PyLong_FromSize_t((size_t)(smallest - s->runs)) : Py_NewRef(Py_None);
    PyObject *cap = s->settings.capacity != APLAN_UNLIMITED ? PyLong_FromUnsignedLongLong(s->settings.capacity)
                                                            : Py_NewRef(Py_None);
    PyObject *whole = s->settings.whole_capacity != APLAN_UNLIMITED && s->settings.whole_capacity != 0
                          ? PyLong_FromUnsignedLongLong(s->settings.whole_capacity)
                          : Py_NewRef(Py_None);
    PyObject *dict = Py_BuildValue("{s:K,s:K,s:n,s:s,s:N,s:y#,s:N,s:N,s:N,s:N,s:N,s:K,s:O}", "bound",
                                   (unsigned long long)s->bound, "bound_step", (unsigned long long)s->bound_step,
                                   "count", (Py_ssize_t)b->in.count, "kind", kinds[b->in.kind], "ids", ids,
                                   "buffers", (const char *)b->in.buffers,
                                   (Py_ssize_t)(b->in.count * sizeof *b->in.buffers), "runs", runs, "best", best,
                                   "smallest", small, "capacity", cap, "whole_capacity", whole, "alignment",
                                   (unsigned long long)s->settings.alignment, "round_sizes",
                                   s->settings.round_sizes ? Py_True : Py_False);
    if (dict == NULL) {
        session_free(b);
        return NULL;
    }
    aplan_host_keep_best(&b->s); /* what the tool writes: auto shows its best run alone */
    PyObject *capsule = PyCapsule_New(b, SESSION_CAPSULE, session_capsule_free);
    if (capsule == NULL) {
        session_free(b);
        Py_DECREF(dict);
        return NULL;
    }
    return Py_BuildValue("(NN)", capsule, dict);
}

/* One way's figures as tflm_arena's dict (without "ops": per operator only TFLM's own planner is told), or None when
 * they are not known (with why: f->why). */
static PyObject *figures_dict(const aplan_host_session *s, const aplan_host_tflm_figures *f) {
    if (!f->known) return Py_BuildValue("{s:z}", "why", f->why[0] != '\0' ? f->why : NULL);
    const aplan_tflm_arena_info *i = &f->info;
    const aplan_host_input *in = s->input;
    aplan_tflite_text unknown = i->unknown_ops > 0 ? aplan_tflm_unknown_name(in->model, in->model_size, i)
                                                   : (aplan_tflite_text){NULL, 0};
    PyObject *unknown_name = unknown.data != NULL
                                 ? PyUnicode_DecodeUTF8(unknown.data, (Py_ssize_t)unknown.size, "replace")
                                 : Py_NewRef(Py_None);
    if (unknown_name == NULL) return NULL;
    PyObject *tensors = f->tensors_known ? PyLong_FromUnsignedLongLong(f->tensors) : Py_NewRef(Py_None);
    if (tensors == NULL) {
        Py_DECREF(unknown_name);
        return NULL;
    }
    return Py_BuildValue(
        "{s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:I,s:I,s:I,s:I,s:I,s:N,s:N}", "used",
        (unsigned long long)i->used, "smallest", (unsigned long long)i->smallest, "planned",
        (unsigned long long)i->planned, "persistent", (unsigned long long)i->persistent, "tflm_objects",
        (unsigned long long)i->tflm_objects, "eval_tensors", (unsigned long long)i->eval_tensors, "nodes",
        (unsigned long long)i->nodes, "params", (unsigned long long)i->params, "op_data",
        (unsigned long long)i->op_data, "variables", (unsigned long long)i->variables, "scratch_handles",
        (unsigned long long)i->scratch_handles, "io_tensors", (unsigned long long)i->io_tensors, "scratch_bytes",
        (unsigned long long)i->scratch_bytes, "scratch_requests", (unsigned)i->scratch_requests, "unknown_ops",
        (unsigned)i->unknown_ops, "first_unknown_subgraph", (unsigned)i->first_unknown_subgraph, "first_unknown_op",
        (unsigned)i->first_unknown_op, "planner", (unsigned)f->planner, "unknown_name", unknown_name, "tensors",
        tensors);
}

/* session_tflm(capsule) -> None for an input that is not a model, else a dict: TFLM's whole arena as `aplan plan`
 * computes it for the session's plan, one figures_dict per way ("own_planner", "embedded", "compiled", "adapter"),
 * and "setup", the JSON key of the way the verdict judges (aplan_host_tflm_setup), or None. */
static PyObject *py_session_tflm(PyObject *self, PyObject *capsule) {
    (void)self;
    session_box *b = PyCapsule_GetPointer(capsule, SESSION_CAPSULE);
    if (b == NULL) return NULL;
    const aplan_host_session *s = &b->s;
    if (b->in.kind != APLAN_HOST_INPUT_TFLITE) Py_RETURN_NONE;
    const aplan_host_tflm_figures *setup = aplan_host_tflm_setup(s);
    return Py_BuildValue("{s:N,s:N,s:N,s:N,s:z}", "own_planner", figures_dict(s, &s->tflm_own), "embedded",
                         figures_dict(s, &s->tflm_embed), "compiled", figures_dict(s, &s->tflm_compiled), "adapter",
                         figures_dict(s, &s->tflm_adapter), "setup",
                         setup != NULL ? aplan_host_tflm_setup_key(s, setup) : NULL);
}

/* The writers by the tool's -f name (src/cli/formats.c), and whether a format shows the whole session (else one
 * plan). */
static const struct {
    const char *name;
    aplan_host_writer *write;
    bool session;
} writers[] = {
    {"table", aplan_host_write_table, true}, {"csv", aplan_host_write_csv, false},
    {"json", aplan_host_write_json, true},   {"svg", aplan_host_write_svg, false},
    {"html", aplan_host_write_html, false},  {"c", aplan_host_write_c, false},
};

/*
 * session_write(capsule, format, name) -> str: what `aplan plan -f FORMAT` writes for the session (its writer into
 * memory, open_memstream), name the C header's prefix (None: "aplan"). The plan written is the best one; when none
 * fits, a format of the whole session gets none and SVG and HTML the smallest plan, as the tool writes them; CSV and
 * the C header then raise DoesNotFitError (the tool writes neither). Raises as raise_host for a writer's failure.
 */
static PyObject *py_session_write(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *capsule;
    const char *format, *name;
    if (!PyArg_ParseTuple(args, "Osz", &capsule, &format, &name)) return NULL;
    session_box *b = PyCapsule_GetPointer(capsule, SESSION_CAPSULE);
    if (b == NULL) return NULL;
    size_t f = 0;
    while (f < sizeof writers / sizeof writers[0] && strcmp(writers[f].name, format) != 0) f++;
    if (f == sizeof writers / sizeof writers[0]) {
        PyErr_Format(PyExc_ValueError, "unknown format '%s'", format);
        return NULL;
    }
    const aplan_host_session *s = &b->s;
    const aplan_host_run *run = s->best != SIZE_MAX ? &s->runs[s->best] : NULL;
    if (run == NULL && !writers[f].session) {
        if (strcmp(format, "svg") == 0 || strcmp(format, "html") == 0) run = aplan_host_smallest_plan(s);
        if (run == NULL) {
            char text[120];
            snprintf(text, sizeof text, "no plan fits the capacity: aplan plan writes no %s then",
                     strcmp(format, "c") == 0 ? "C header" : "CSV");
            return raise_host(APLAN_HOST_NO_FIT, text);
        }
    }
    aplan_host_options o = b->o;
    o.name = name;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (out == NULL) return PyErr_NoMemory();
    aplan_host_error err = {0};
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = writers[f].write(out, s, run, &o, &err);
    if (rc == APLAN_HOST_OK && ferror(out) != 0) rc = APLAN_HOST_IO;
    if (fclose(out) != 0 && rc == APLAN_HOST_OK) rc = APLAN_HOST_IO;
    Py_END_ALLOW_THREADS
    PyObject *result = NULL;
    if (rc == APLAN_HOST_IO && aplan_host_error_text(&err) == NULL) PyErr_NoMemory(); /* only memory fails here */
    else if (rc != APLAN_HOST_OK) raise_host(rc, aplan_host_error_text(&err));
    else result = PyUnicode_DecodeUTF8(text, (Py_ssize_t)size, "strict");
    aplan_host_error_clear(&err);
    free(text);
    return result;
}

/*
 * embed(name, data, strategies, time_limit_ns, abi, kernels, target, replan, force, offsets, strategy) ->
 * (bytes, dict): `aplan embed NAME -o OUT` on data (the model's bytes, named name) with the tool's settings (abi 0,
 * kernels -1, target None: not given), replan and force as --replan and --force; offsets (a list, one per buffer of
 * the model as aplan.load reads it) embeds that plan of strategy instead of planning (None: plan). The bytes are
 * what the tool writes to OUT; the dict: replaced (the model had an offline plan), grows (TFLM's arena grows, written
 * under force), used_before and used_after (TFLM's arena_used_bytes(), None when unknown). The GIL is released while
 * it runs; a signal handler's exception stops it. Failures raise as raise_host, with the tool's message.
 */
static PyObject *py_embed(PyObject *self, PyObject *args) {
    (void)self;
    const char *name, *strategies, *target, *strategy;
    Py_buffer data;
    PyObject *time_limit, *offsets_list;
    unsigned int abi;
    int kernels, replan, force;
    if (!PyArg_ParseTuple(args, "sy*sOIizppOz", &name, &data, &strategies, &time_limit, &abi, &kernels, &target,
                          &replan, &force, &offsets_list, &strategy))
        return NULL;
    aplan_host_options o = {0};
    o.strategies = strategies;
    o.target = target;
    if (time_limit != Py_None) {
        o.time_limit_ns = PyLong_AsUnsignedLongLong(time_limit);
        o.given |= APLAN_HOST_SET_TIME_LIMIT;
    }
    if (abi != 0) {
        o.abi = abi;
        o.given |= APLAN_HOST_SET_ABI;
    }
    if (kernels >= 0) {
        o.kernels = (unsigned)kernels;
        o.given |= APLAN_HOST_SET_KERNELS;
    }
    uint64_t *offsets = NULL;
    Py_ssize_t offset_count = 0;
    if (!PyErr_Occurred() && offsets_list != Py_None) {
        Py_ssize_t n = offset_count = PySequence_Size(offsets_list);
        offsets = n >= 0 ? PyMem_RawMalloc((size_t)(n > 0 ? n : 1) * sizeof *offsets) : NULL;
        if (n >= 0 && offsets == NULL) PyErr_NoMemory();
        for (Py_ssize_t i = 0; offsets != NULL && i < n && !PyErr_Occurred(); i++) {
            PyObject *item = PySequence_GetItem(offsets_list, i);
            if (item != NULL) offsets[i] = PyLong_AsUnsignedLongLong(item);
            Py_XDECREF(item);
        }
    }
    if (PyErr_Occurred()) {
        PyMem_RawFree(offsets);
        PyBuffer_Release(&data);
        return NULL;
    }
    aplan_host_embedding *e = PyMem_RawCalloc(1, sizeof *e);
    if (e == NULL) {
        PyMem_RawFree(offsets);
        PyBuffer_Release(&data);
        return PyErr_NoMemory();
    }
    aplan_host_error err = {0};
    interrupt_state stop = {NULL, now_ns() + SIGNAL_CHECK_NS, false};
    e->interrupt = interrupt_check;
    e->interrupt_state = &stop;
    const unsigned flags = (replan ? APLAN_HOST_EMBED_REPLAN : 0u) | (force ? APLAN_HOST_EMBED_FORCE : 0u);
    stop.thread = PyEval_SaveThread();
    int rc = aplan_host_embed_model(name, data.buf, (size_t)data.len, &o, flags, offsets, (size_t)offset_count,
                                    strategy, e, &err);
    PyEval_RestoreThread(stop.thread);
    PyObject *result = NULL;
    if (stop.raised) {
        /* the handler's exception is set */
    } else if (rc != APLAN_HOST_OK) {
        raise_host(rc, aplan_host_error_text(&err));
    } else {
        const aplan_host_session *s = &e->s;
        const bool known = s->tflm_own.known && s->tflm_embed.known;
        PyObject *before = known ? PyLong_FromUnsignedLongLong(s->tflm_own.info.used) : Py_NewRef(Py_None);
        PyObject *after = known ? PyLong_FromUnsignedLongLong(s->tflm_embed.info.used) : Py_NewRef(Py_None);
        if (before != NULL && after != NULL)
            result = Py_BuildValue("(y#{s:O,s:O,s:O,s:O})", (const char *)e->model, (Py_ssize_t)e->size,
                                   "replaced", e->info.replaced ? Py_True : Py_False, "grows",
                                   e->grows ? Py_True : Py_False, "used_before", before, "used_after", after);
        Py_XDECREF(before);
        Py_XDECREF(after);
    }
    aplan_host_embedding_free(e); /* nothing held after a failure */
    aplan_host_error_clear(&err);
    PyMem_RawFree(e);
    PyMem_RawFree(offsets);
    PyBuffer_Release(&data);
    return result;
}

/* targets() -> [(name, core, alignment, ram, abi, cmsis_isa (None: not covered), why_cmsis, why_alignment, why_ram,
 * regions [(name, size, align)], why_regions)] in the tool's order (`aplan targets`, src/host/targets.c). */
static PyObject *py_targets(PyObject *self, PyObject *unused) {
    (void)self;
    (void)unused;
    size_t n = aplan_host_target_count();
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list != NULL && i < n; i++) {
        const aplan_host_target *t = aplan_host_target_at(i);
        PyObject *regions = PyList_New((Py_ssize_t)t->region_count);
        for (size_t r = 0; regions != NULL && r < t->region_count; r++) {
            PyObject *row = Py_BuildValue("(sKK)", t->regions[r].name, (unsigned long long)t->regions[r].size,
                                          (unsigned long long)t->regions[r].align);
            if (row == NULL) Py_CLEAR(regions);
            else PyList_SET_ITEM(regions, (Py_ssize_t)r, row);
        }
        PyObject *isa = t->cmsis_isa >= 0 ? PyLong_FromLong(t->cmsis_isa) : Py_NewRef(Py_None);
        PyObject *row = regions != NULL && isa != NULL
                            ? Py_BuildValue("(ssKKINzzzNz)", t->name, t->core, (unsigned long long)t->alignment,
                                            (unsigned long long)t->ram, t->abi, isa, t->why_cmsis, t->why_alignment,
                                            t->why_ram, regions, t->why_regions)
                            : NULL;
        if (row == NULL) {
            if (regions == NULL || isa == NULL) {
                Py_XDECREF(regions);
                Py_XDECREF(isa);
            }
            Py_CLEAR(list);
        } else {
            PyList_SET_ITEM(list, (Py_ssize_t)i, row);
        }
    }
    return list;
}

/* ---------------------------------------------------------------------------------------------------------------- */
/* Readers                                                                                                           */

/* csv_parse(text bytes, name) -> (buffers, ids, lines, columns). Raises BadInputError "NAME:LINE:COL: message". */
static PyObject *py_csv_parse(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer text;
    const char *name;
    if (!PyArg_ParseTuple(args, "y*s", &text, &name)) return NULL;
    aplan_csv_table t;
    aplan_format_error e;
    aplan_status s;
    Py_BEGIN_ALLOW_THREADS
    s = aplan_csv_parse(text.buf, (size_t)text.len, &t, &e);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&text);
    if (s != APLAN_OK) {
        char message[400];
        if (e.line != 0 && e.column != 0)
            snprintf(message, sizeof message, "%s:%u:%u: %s", name, (unsigned)e.line, (unsigned)e.column, e.message);
        else if (e.line != 0)
            snprintf(message, sizeof message, "%s:%u: %s", name, (unsigned)e.line, e.message);
        else
            snprintf(message, sizeof message, "%s: %s", name, e.message[0] != '\0' ? e.message : aplan_status_str(s));
        if (s == APLAN_E_OUT_OF_MEMORY) return PyErr_NoMemory();
        return raise_status(s, message, "input");
    }
    PyObject *buffers = PyBytes_FromStringAndSize((const char *)t.buffers, (Py_ssize_t)(t.count * sizeof(aplan_buffer)));
    PyObject *ids = PyList_New((Py_ssize_t)t.count), *lines = PyList_New((Py_ssize_t)t.count);
    bool ok = buffers != NULL && ids != NULL && lines != NULL;
    for (size_t i = 0; ok && i < t.count; i++) {
        PyObject *id = PyUnicode_DecodeUTF8(t.ids[i], (Py_ssize_t)strlen(t.ids[i]), "replace");
        PyObject *line = PyLong_FromUnsignedLong(t.lines[i]);
        ok = id != NULL && line != NULL;
        if (id != NULL) PyList_SET_ITEM(ids, (Py_ssize_t)i, id);
        if (line != NULL) PyList_SET_ITEM(lines, (Py_ssize_t)i, line);
    }
    unsigned int columns = t.columns;
    aplan_csv_free(&t);
    if (!ok) {
        Py_XDECREF(buffers);
        Py_XDECREF(ids);
        Py_XDECREF(lines);
        return NULL;
    }
    return Py_BuildValue("(NNNI)", buffers, ids, lines, columns);
}

/* The model's bytes loaded into *in as the host layer loads them for the CLI (aplan_host_load_tflite, without the
 * GIL; the caller frees in with aplan_host_input_free). false with the exception set: MemoryError, or the reader's
 * status with the CLI's words (a file cut short first, else the byte); in is then empty. */
static bool load_model(const char *name, const Py_buffer *model, aplan_host_input *in) {
    char message[512] = "";
    aplan_status s = APLAN_OK;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = aplan_host_load_tflite(name, model->buf, (size_t)model->len, in, message, sizeof message, &s);
    Py_END_ALLOW_THREADS
    if (rc == APLAN_HOST_OK) return true;
    if (rc == APLAN_HOST_INTERNAL) PyErr_NoMemory();
    else raise_status(s, message, "input");
    return false;
}

/* tflite_read(model bytes, name) -> (buffers, tflite ids bytes, id strings, subgraph count): the tensors TFLM plans,
 * as aplan_tflite_read gives them (through the host layer's loader, the CLI's). */
static PyObject *py_tflite_read(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer model;
    const char *name;
    if (!PyArg_ParseTuple(args, "y*s", &model, &name)) return NULL;
    aplan_host_input in;
    PyObject *buffers = NULL, *ids = NULL, *texts = NULL, *result = NULL;
    if (!load_model(name, &model, &in)) goto done;
    const size_t count = in.tensor_count;
    buffers = PyBytes_FromStringAndSize((const char *)in.buffers, (Py_ssize_t)(count * sizeof(aplan_buffer)));
    ids = PyBytes_FromStringAndSize((const char *)in.tflite_ids, (Py_ssize_t)(count * sizeof(aplan_tflite_id)));
    texts = buffers != NULL && ids != NULL ? PyList_New((Py_ssize_t)count) : NULL;
    for (size_t i = 0; texts != NULL && i < count; i++) {
        PyObject *o = PyUnicode_FromString(in.ids[i]);
        if (o == NULL) Py_CLEAR(texts);
        else PyList_SET_ITEM(texts, (Py_ssize_t)i, o);
    }
    if (texts != NULL) result = Py_BuildValue("(OOOn)", buffers, ids, texts, (Py_ssize_t)in.subgraphs);
    aplan_host_input_free(&in);
done:
    Py_XDECREF(buffers);
    Py_XDECREF(ids);
    Py_XDECREF(texts);
    PyBuffer_Release(&model);
    return result;
}

/* The arena model's configuration from (abi, kernels, isa, planner, planner_scratch); false with UsageError. */
static bool tflm_config(unsigned int abi, unsigned int kernels, unsigned int isa, unsigned int planner,
                        unsigned long long planner_scratch, aplan_tflm_config *c) {
    aplan_tflm_config_init(c);
    c->abi = abi;
    c->kernels = kernels;
    c->isa = isa;
    c->planner = planner;
    c->planner_scratch = planner_scratch;
    /* The library's query checks the other fields (APLAN_E_INVALID_ARG); the package passes only valid ones. */
    if (abi != APLAN_TFLM_ABI_32 && abi != APLAN_TFLM_ABI_64) {
        raise_status(APLAN_E_INVALID_ARG, "abi must be 32 or 64 (the target's pointer width in bits)", "usage");
        return false;
    }
    return true;
}

/* tflm_scratch(model, name, abi, kernels, isa) -> (buffers of the kernels' scratch requests, their ids
 * "s<subgraph>o<op>r<index>"): the requests the CLI adds to a model's problem, by the same code (the host layer's
 * aplan_host_add_tflm_scratch over the model loaded by aplan_host_load_tflite), without the GIL. */
static PyObject *py_tflm_scratch(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer model;
    const char *name;
    unsigned int abi, kernels, isa;
    if (!PyArg_ParseTuple(args, "y*sIII", &model, &name, &abi, &kernels, &isa)) return NULL;
    aplan_tflm_config c;
    PyObject *result = NULL;
    if (!tflm_config(abi, kernels, isa, APLAN_TFLM_GREEDY_IN_ARENA, 0, &c)) {
        PyBuffer_Release(&model);
        return NULL;
    }
    aplan_host_input in;
    if (!load_model(name, &model, &in)) {
        PyBuffer_Release(&model);
        return NULL;
    }
    char message[512] = "";
    aplan_status s = APLAN_OK;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = aplan_host_add_tflm_scratch(&in, &c, message, sizeof message, &s);
    Py_END_ALLOW_THREADS
    if (rc == APLAN_HOST_INTERNAL || s == APLAN_E_OUT_OF_MEMORY) {
        PyErr_NoMemory();
    } else if (rc != APLAN_HOST_OK) {
        raise_status(s, message, "tflm");
    } else {
        const size_t requests = in.count - in.tensor_count;
        PyObject *buffers = PyBytes_FromStringAndSize((const char *)(in.buffers + in.tensor_count),
                                                      (Py_ssize_t)(requests * sizeof(aplan_buffer)));
        PyObject *ids = PyList_New((Py_ssize_t)requests);
        for (size_t k = 0; buffers != NULL && ids != NULL && k < requests; k++) {
            PyObject *id = PyUnicode_FromString(in.ids[in.tensor_count + k]);
            if (id == NULL) Py_CLEAR(ids);
            else PyList_SET_ITEM(ids, (Py_ssize_t)k, id);
        }
        if (buffers != NULL && ids != NULL) result = Py_BuildValue("(OO)", buffers, ids);
        Py_XDECREF(buffers);
        Py_XDECREF(ids);
    }
    aplan_host_input_free(&in);
    PyBuffer_Release(&model);
    return result;
}

/* The name of operator op of subgraph (builtin name or custom code), or None. */
static PyObject *operator_name(const void *model, size_t size, uint32_t subgraph, uint32_t op) {
    aplan_tflite_operator_info info;
    if (aplan_tflite_operator(model, size, subgraph, op, &info, NULL) != APLAN_OK || info.name.data == NULL)
        Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(info.name.data, (Py_ssize_t)info.name.size, "replace");
}

/*
 * tflm_arena(model, name, abi, kernels, isa, planner, planner_scratch, tflite ids bytes, section) -> dict of
 * aplan_tflm_arena_info's fields (by their C names), "ops": [(subgraph, op, name, params, op_data, scratch,
 * scratch_requests, known)], "unknown_name" and "refused_name" (the first such operator's, or None).
 */
static PyObject *py_tflm_arena(PyObject *self, PyObject *args) {
    (void)self;
    Py_buffer model;
    const char *name;
    unsigned int abi, kernels, isa, planner;
    unsigned long long planner_scratch, section;
    PyObject *ids_obj;
    if (!PyArg_ParseTuple(args, "y*sIIIIKOK", &model, &name, &abi, &kernels, &isa, &planner, &planner_scratch,
                          &ids_obj, &section))
        return NULL;
    PyObject *result = NULL;
    aplan_tflm_config c;
    if (!tflm_config(abi, kernels, isa, planner, planner_scratch, &c)) {
        PyBuffer_Release(&model);
        return NULL;
    }
    if (!PyBytes_Check(ids_obj) || PyBytes_GET_SIZE(ids_obj) % (Py_ssize_t)sizeof(aplan_tflite_id) != 0) {
        PyBuffer_Release(&model);
        PyErr_SetString(PyExc_TypeError, "ids must be the bytes tflite_read gave");
        return NULL;
    }
    const aplan_tflite_id *ids = (const aplan_tflite_id *)PyBytes_AS_STRING(ids_obj);
    size_t id_count = (size_t)PyBytes_GET_SIZE(ids_obj) / sizeof *ids;
    aplan_format_error e;
    memset(&e, 0, sizeof e);
    aplan_tflite_info minfo;
    size_t bytes = 0, requests = 0;
    aplan_status s = aplan_tflite_query(model.buf, (size_t)model.len, &minfo, &e);
    if (s == APLAN_OK) s = aplan_tflm_query(model.buf, (size_t)model.len, &c, &bytes, &requests, &e);
    void *scratch = s == APLAN_OK ? scratch_new(bytes) : NULL;
    aplan_tflm_op_cost *costs = s == APLAN_OK ? PyMem_RawMalloc((minfo.operator_count + 1u) * sizeof *costs) : NULL;
    if (s == APLAN_OK && (scratch == NULL || costs == NULL)) s = APLAN_E_OUT_OF_MEMORY;
    aplan_tflm_arena_info i;
    memset(&i, 0, sizeof i);
    if (s == APLAN_OK) {
        Py_BEGIN_ALLOW_THREADS
        s = aplan_tflm_arena(model.buf, (size_t)model.len, &c, ids, id_count, section, scratch, bytes, &i, costs,
                             minfo.operator_count, &e);
        Py_END_ALLOW_THREADS
    }
    if (s == APLAN_E_OUT_OF_MEMORY) {
        PyErr_NoMemory();
    } else if (s != APLAN_OK) { /* the tool's words (src/cli/tflm.c, cli_tflm_failure) */
        char message[400];
        snprintf(message, sizeof message, "%s: %s%s", name,
                 s == APLAN_E_FORMAT_UNSUPPORTED ? "" : "cannot compute TFLM's arena: ",
                 e.message[0] != '\0' ? e.message : aplan_status_str(s));
        raise_status(s, message, "tflm");
    } else {
        PyObject *ops = PyList_New(0);
        for (size_t k = 0; ops != NULL && k < minfo.operator_count; k++) {
            const aplan_tflm_op_cost *o = &costs[k];
            PyObject *row = Py_BuildValue("(IINKKKIO)", (unsigned)o->subgraph, (unsigned)o->op,
                                          operator_name(model.buf, (size_t)model.len, o->subgraph, o->op),
                                          (unsigned long long)o->params, (unsigned long long)o->op_data,
                                          (unsigned long long)o->scratch, (unsigned)o->scratch_requests,
                                          o->known ? Py_True : Py_False);
            if (row == NULL || PyList_Append(ops, row) != 0) Py_CLEAR(ops);
            Py_XDECREF(row);
        }
        aplan_tflite_text unknown = aplan_tflm_unknown_name(model.buf, (size_t)model.len, &i);
        PyObject *unknown_name = unknown.data != NULL
                                     ? PyUnicode_DecodeUTF8(unknown.data, (Py_ssize_t)unknown.size, "replace")
                                     : Py_NewRef(Py_None);
        PyObject *refused_name = i.refused_ops > 0 ? operator_name(model.buf, (size_t)model.len,
                                                                   i.first_refused_subgraph, i.first_refused_op)
                                                   : Py_NewRef(Py_None);
        if (ops != NULL && unknown_name != NULL && refused_name != NULL)
            result = Py_BuildValue(
                "{s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:N,s:N,s:N}",
                "used", (unsigned long long)i.used, "smallest", (unsigned long long)i.smallest, "planned",
                (unsigned long long)i.planned, "persistent", (unsigned long long)i.persistent, "tflm_objects",
                (unsigned long long)i.tflm_objects, "eval_tensors", (unsigned long long)i.eval_tensors, "nodes",
                (unsigned long long)i.nodes, "params", (unsigned long long)i.params, "op_data",
                (unsigned long long)i.op_data, "variables", (unsigned long long)i.variables, "scratch_handles",
                (unsigned long long)i.scratch_handles, "io_tensors", (unsigned long long)i.io_tensors,
                "scratch_bytes", (unsigned long long)i.scratch_bytes, "scratch_requests", (unsigned)i.scratch_requests,
                "unknown_ops", (unsigned)i.unknown_ops, "first_unknown_subgraph", (unsigned)i.first_unknown_subgraph,
                "first_unknown_op", (unsigned)i.first_unknown_op, "refused_ops", (unsigned)i.refused_ops,
                "first_refused_subgraph", (unsigned)i.first_refused_subgraph, "first_refused_op",
                (unsigned)i.first_refused_op, "refusal", (unsigned)i.refusal, "ops", ops, "unknown_name",
                unknown_name, "refused_name", refused_name);
        else {
            Py_XDECREF(ops);
            Py_XDECREF(unknown_name);
            Py_XDECREF(refused_name);
        }
    }
    PyMem_RawFree(scratch);
    PyMem_RawFree(costs);
    PyBuffer_Release(&model);
    return result;
}

/* ---------------------------------------------------------------------------------------------------------------- */

static PyMethodDef methods[] = {
    {"_set_error_factory", set_error_factory, METH_O, "Register factory(status, message, context) -> exception."},
    {"version", py_version, METH_NOARGS, "The C library's version, MAJOR.MINOR.PATCH."},
    {"statuses", py_statuses, METH_NOARGS, "[(C name without APLAN_, value, aplan_status_str)]."},
    {"strategies", py_strategies, METH_NOARGS, "[(name, description, searches, in_auto)] in registry order."},
    {"auto_strategies", py_auto_strategies, METH_NOARGS, "The names auto runs, in its tie order."},
    {"type_name", py_type_name, METH_O, "A TensorType code's name, or None."},
    {"pack_buffers", py_pack_buffers, METH_VARARGS, "Columns -> bytes of aplan_buffer."},
    {"unpack_buffers", py_unpack_buffers, METH_O, "bytes of aplan_buffer -> the five columns."},
    {"buffers_csv", py_buffers_csv, METH_VARARGS, "bytes of aplan_buffer, ids -> Problem.to_csv()'s text."},
    {"validate", py_validate, METH_VARARGS, "aplan_problem_validate."},
    {"lower_bound", py_lower_bound, METH_VARARGS, "aplan_lower_bound -> (bytes, step)."},
    {"verify", py_verify, METH_VARARGS, "aplan_verify -> (arena, aliased pairs)."},
    {"plan", py_plan, METH_VARARGS, "aplan_plan_search for one strategy (GIL released)."},
    {"embed", py_embed, METH_VARARGS, "`aplan embed`: the model with its offline plan (GIL released)."},
    {"csv_parse", py_csv_parse, METH_VARARGS, "aplan_csv_parse -> (buffers, ids, lines, columns)."},
    {"tflite_read", py_tflite_read, METH_VARARGS, "aplan_tflite_read -> (buffers, ids, id texts, subgraphs)."},
    {"tflm_scratch", py_tflm_scratch, METH_VARARGS, "aplan_tflm_scratch_requests -> (buffers, ids)."},
    {"tflm_arena", py_tflm_arena, METH_VARARGS, "aplan_tflm_arena -> dict."},
    {"session", py_session, METH_VARARGS, "`aplan plan` through the host layer -> (session, dict) (GIL released)."},
    {"session_write", py_session_write, METH_VARARGS, "What `aplan plan -f FORMAT` writes for a session -> str."},
    {"session_tflm", py_session_tflm, METH_O, "TFLM's whole arena for a session's plan, each way -> dict."},
    {"targets", py_targets, METH_NOARGS, "The target presets, as `aplan targets`."},
    {NULL, NULL, 0, NULL},
};

static int module_exec(PyObject *m) {
    return PyModule_AddStringConstant(m, "TFLM_COMMIT", APLAN_TFLM_COMMIT) != 0 ||
                   PyModule_AddIntConstant(m, "TFLM_GREEDY_IN_ARENA", APLAN_TFLM_GREEDY_IN_ARENA) != 0 ||
                   PyModule_AddIntConstant(m, "KERNELS_REFERENCE", APLAN_TFLM_KERNELS_REFERENCE) != 0 ||
                   PyModule_AddIntConstant(m, "KERNELS_CMSIS_NN", APLAN_TFLM_KERNELS_CMSIS_NN) != 0 ||
                   PyModule_AddIntConstant(m, "ISA_PORTABLE", APLAN_TFLM_ISA_PORTABLE) != 0 ||
                   PyModule_AddIntConstant(m, "ISA_DSP", APLAN_TFLM_ISA_DSP) != 0 ||
                   PyModule_AddIntConstant(m, "REFUSED_WEIGHTS", APLAN_TFLM_REFUSED_WEIGHTS) != 0 ||
                   PyModule_AddIntConstant(m, "ROUND_SIZES", APLAN_ROUND_SIZES) != 0 ||
                   PyModule_AddIntConstant(m, "ALLOW_FIXED_ALIAS", APLAN_ALLOW_FIXED_ALIAS) != 0 ||
                   PyModule_AddIntConstant(m, "TFLITE_ALIGNMENT", APLAN_TFLITE_ALIGNMENT) != 0 ||
                   PyModule_AddIntConstant(m, "CSV_START_END", APLAN_CSV_START_END) != 0
               ? -1
               : 0;
}

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_aplan", "aplan's C library, bound for the aplan package (see aplan/__init__.py).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__aplan(void);
PyMODINIT_FUNC PyInit__aplan(void) {
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && module_exec(m) != 0) Py_CLEAR(m);
    return m;
}
