/* pypoker._fastcall: the one-hand and small-batch calls of pp.rank, as a CPython extension.
 *
 * Why it exists: a call through cffi's ABI mode costs 0.2-0.35 us before any work (argument
 * conversion by libffi), and a NumPy array's pointer another 0.15-0.2 us (ffi.from_buffer).
 * A bot or a notebook ranking one hand, or ten, pays that on every call. This module reads the
 * hand straight from the Python object (list, tuple, str or array) and calls the library's own
 * exports, so one call costs about what the interpreter's call costs.
 *
 * It is optional and holds no ranking code: pypoker/_native.py passes it the addresses of
 * pp_rank_hand, pp_rank_text, pp_rank_cards and the Omaha one-hand calls from the library cffi
 * loaded (bind), so both
 * share one library, one CPU-level choice and one set of tables. Every function answers "not
 * mine" (0 or None) for anything but the plain case; the caller then takes the general path,
 * which ranks it or raises that path's error. So errors are never written twice, and this file
 * never decides what a bad hand is. Where it is not built or not loaded, the cffi paths run.
 *
 * Built against the stable ABI (Py_LIMITED_API 3.10), from any Python's headers, for every
 * platform the wheels serve (on Windows linked to python3.dll: build.zig): no NumPy headers,
 * whose generated configuration is the build machine's. An array is read by the fields of
 * NumPy's PyArrayObject_fields (data, nd, dimensions, strides, base, descr, flags: the prefix
 * every NumPy extension's inline accessors read, the same in NumPy 1.x and 2.x), not the
 * buffer protocol, whose first export of an array builds a format string (0.1-0.2 us for each
 * new array). bind checks that layout on probe arrays and refuses to bind where it differs.
 * Dtypes are told by their descriptor's identity (NumPy's built-in uint8 and uint16): any
 * other descriptor takes the general path.
 */
#define PY_SSIZE_T_CLEAN
#define Py_LIMITED_API 0x030A0000 /* the stable ABI: one build serves CPython 3.10 and later */
#include <Python.h>

#include "pypoker.h"

/* The head of NumPy's array object (numpy/ndarraytypes.h, PyArrayObject_fields). */
typedef struct {
    PyObject ob_base;
    char *data;
    int nd;
    Py_ssize_t *dimensions;
    Py_ssize_t *strides;
    PyObject *base;
    PyObject *descr;
    int flags;
} Array;

enum { ARRAY_C_CONTIGUOUS = 0x0001, ARRAY_WRITEABLE = 0x0400 }; /* NPY_ARRAY_* */

typedef uint16_t (*rank_hand_fn)(const char *cards, uint32_t k);
typedef uint16_t (*rank_text_fn)(const char *text, uint64_t length);
typedef pp_status (*rank_cards_fn)(const uint8_t *cards, uint64_t n, uint32_t k, uint16_t *out,
                                   pp_error *err);
typedef uint16_t (*rank_omaha_hand_fn)(const uint8_t *holes, uint32_t holes_length,
                                       const uint8_t *board, uint32_t board_length);
typedef uint16_t (*rank_omaha_text_fn)(const char *holes, uint64_t holes_length,
                                       const char *board, uint64_t board_length);

static rank_hand_fn rank_hand_call;
static rank_text_fn rank_text_call;
static rank_cards_fn rank_cards_call;
static rank_omaha_hand_fn rank_omaha_hand_call;
static rank_omaha_text_fn rank_omaha_text_call;
static PyTypeObject *ndarray_type; /* numpy.ndarray: subclasses take the general path */
static PyObject *new_ranks;        /* numpy.empty */
static PyObject *cards_dtype;      /* numpy.dtype("uint8") */
static PyObject *ranks_dtype;      /* numpy.dtype("uint16") */
static Py_ssize_t small_batch_bytes; /* bigger batches: the general path, which uses threads */

/* Sizes are the exports' to judge (a hand of 8 cards gets 0, and the general path's error):
 * this file only keeps lengths inside its buffer and inside the exports' 32-bit counts. */
#define fits_u32(length) ((uint64_t)(length) <= UINT32_MAX)

static void keep(PyObject **slot, PyObject *object) {
    PyObject *old = *slot;
    Py_INCREF(object);
    *slot = object;
    Py_XDECREF(old);
}

/* Whether an array read through `Array` shows the shape, dtype and flags Python said. */
static int reads_as(PyObject *object, void *data, Py_ssize_t rows, Py_ssize_t columns,
                    int flags) {
    if (Py_TYPE(object) != ndarray_type) return 0;
    const Array *array = (const Array *)object;
    return (data == NULL || array->data == data) && array->nd == 2 &&
           array->dimensions[0] == rows && array->dimensions[1] == columns &&
           array->descr == cards_dtype &&
           (array->flags & (ARRAY_C_CONTIGUOUS | ARRAY_WRITEABLE)) == flags;
}

enum { EXPORTS = 5 }; /* the library's exports this module calls, in bind's order */

/* bind(exports, numpy.ndarray, numpy.empty, numpy.dtype("uint8"), numpy.dtype("uint16"),
 * small_batch_bytes, probe, probe_data, strided): `exports` the addresses (ints) of
 * pp_rank_hand, pp_rank_text, pp_rank_cards, pp_rank_omaha_hand and pp_rank_omaha_text; what it
 * takes to make an array of ranks; ranking's small batch; and the layout check: `probe` a
 * (3, 5) uint8 C-contiguous writable array whose data is at `probe_data`, `strided` a read-only
 * (3, 3) view of it, every other column. */
static PyObject *bind(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 9 || !PyTuple_Check(args[0]) || PyTuple_Size(args[0]) != EXPORTS ||
        !PyType_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "bind takes nine arguments: see fastcall.c");
        return NULL;
    }
    Py_ssize_t small = PyLong_AsSsize_t(args[5]);
    void *probe_data = PyLong_AsVoidPtr(args[7]);
    if (small < 0 || probe_data == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a bad size or address");
        return NULL;
    }
    void *addresses[EXPORTS];
    for (Py_ssize_t i = 0; i < EXPORTS; i++) {
        addresses[i] = PyLong_AsVoidPtr(PyTuple_GetItem(args[0], i));
        if (addresses[i] == NULL) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a null address");
            return NULL;
        }
    }
    keep((PyObject **)&ndarray_type, args[1]);
    keep(&new_ranks, args[2]);
    keep(&cards_dtype, args[3]);
    keep(&ranks_dtype, args[4]);
    if (!reads_as(args[6], probe_data, 3, 5, ARRAY_C_CONTIGUOUS | ARRAY_WRITEABLE) ||
        !reads_as(args[8], NULL, 3, 3, 0)) {
        PyErr_SetString(PyExc_ImportError,
                        "this NumPy's arrays are not laid out as pypoker._fastcall reads them");
        return NULL;
    }
    small_batch_bytes = small;
    rank_hand_call = (rank_hand_fn)addresses[0];
    rank_text_call = (rank_text_fn)addresses[1];
    rank_cards_call = (rank_cards_fn)addresses[2];
    rank_omaha_hand_call = (rank_omaha_hand_fn)addresses[3];
    rank_omaha_text_call = (rank_omaha_text_fn)addresses[4];
    Py_RETURN_NONE;
}

/* The rank of a list or tuple of ints, each 0..255 (pp_rank_hand checks the cards). */
static uint16_t rank_sequence(PyObject *hand, int is_list) {
    Py_ssize_t k = is_list ? PyList_Size(hand) : PyTuple_Size(hand);
    char cards[16]; /* more than any hand: longer lists are the general path's */
    if (k < 1 || k > (Py_ssize_t)sizeof cards) return 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *item = is_list ? PyList_GetItem(hand, i) : PyTuple_GetItem(hand, i);
        if (!PyLong_CheckExact(item)) return 0; /* bools and the like: the batch path */
        long id = PyLong_AsLong(item);
        if (id < 0 || id > 255) {
            PyErr_Clear(); /* an overflow: the batch path names the card */
            return 0;
        }
        cards[i] = (char)id;
    }
    return rank_hand_call(cards, (uint32_t)k);
}

/* The rank of a short str of card text. */
static uint16_t rank_string(PyObject *text) {
    Py_ssize_t length;
    const char *utf8 = PyUnicode_AsUTF8AndSize(text, &length);
    if (utf8 == NULL) {
        PyErr_Clear(); /* e.g. lone surrogates: the batch parser's error */
        return 0;
    }
    return rank_text_call(utf8, (uint64_t)length);
}

/* A plain NumPy array of this dtype (its exact type, C-contiguous, NumPy's own descriptor of
 * the dtype), or NULL: anything else is the general path's. */
static const Array *plain_array(PyObject *object, PyObject *dtype) {
    if (Py_TYPE(object) != ndarray_type) return NULL;
    const Array *array = (const Array *)object;
    return array->descr == dtype && (array->flags & ARRAY_C_CONTIGUOUS) ? array : NULL;
}

/* rank_hand(hand) -> int: one hand's rank, or 0 when the batch path must answer (a bad hand,
 * or a form this call does not read): a list or tuple of ids, or a str. */
static PyObject *rank_hand(PyObject *self, PyObject *hand) {
    (void)self;
    uint16_t found = 0;
    if (rank_hand_call == NULL || rank_text_call == NULL)
        found = 0;
    else if (PyList_CheckExact(hand) || PyTuple_CheckExact(hand))
        found = rank_sequence(hand, PyList_CheckExact(hand));
    else if (PyUnicode_CheckExact(hand))
        found = rank_string(hand);
    return PyLong_FromLong(found);
}

/* ranks of an (n, k) uint8 array into out (a plain (n,) uint16 array, or a new one when out is
 * None), of at most small_batch_bytes of cards. Returns out (a new reference), or NULL for the
 * general path: another shape, an out that does not fit or shares the hands' memory, a bad
 * hand. */
static PyObject *rank_rows(const Array *hands, PyObject *out_object) {
    Py_ssize_t n = hands->dimensions[0], k = hands->dimensions[1];
    if (n < 1 || !fits_u32(k) || n * (k > 0 ? k : 1) > small_batch_bytes) return NULL;
    PyObject *ranks;
    if (out_object == Py_None) {
        PyObject *size = PyLong_FromSsize_t(n);
        if (size == NULL) return NULL;
        ranks = PyObject_CallFunctionObjArgs(new_ranks, size, ranks_dtype, NULL);
        Py_DECREF(size);
        if (ranks == NULL) return NULL;
    } else {
        const Array *out = plain_array(out_object, ranks_dtype);
        if (out == NULL || out->nd != 1 || out->dimensions[0] != n ||
            !(out->flags & ARRAY_WRITEABLE))
            return NULL;
        if (hands->data < out->data + 2 * n && out->data < hands->data + n * k)
            return NULL; /* they overlap */
        Py_INCREF(out_object);
        ranks = out_object;
    }
    pp_error err;
    pp_status status = rank_cards_call((const uint8_t *)hands->data, (uint64_t)n, (uint32_t)k,
                                       (uint16_t *)((const Array *)ranks)->data, &err);
    if (status == PP_OK) return ranks;
    Py_DECREF(ranks); /* out holds partial ranks: the general path zeroes it and raises */
    return NULL;
}

/* rank_array(hands, out) -> int, array or None: a plain uint8 array of card ids ranked, a 1-D
 * one as one hand (an int; out is not used, as on the general path), an (n, k)
 * one as a small batch (into out, or a new array); None where the general path answers. */
static PyObject *rank_array(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    const Array *hands =
        nargs == 2 && rank_cards_call != NULL ? plain_array(args[0], cards_dtype) : NULL;
    PyObject *ranked = NULL;
    if (hands != NULL && hands->nd == 1) {
        Py_ssize_t k = hands->dimensions[0];
        uint16_t found = fits_u32(k) ? rank_hand_call(hands->data, (uint32_t)k) : 0;
        if (found) ranked = PyLong_FromLong(found);
    } else if (hands != NULL && hands->nd == 2) {
        ranked = rank_rows(hands, args[1]);
    }
    if (ranked != NULL || PyErr_Occurred()) return ranked; /* e.g. no memory: raised */
    Py_RETURN_NONE;
}

/* The cards of a plain uint8 array of one row (1-D, or (1, k)), or NULL. */
static const Array *one_row(PyObject *object) {
    const Array *array = plain_array(object, cards_dtype);
    if (array == NULL || array->nd < 1 || array->nd > 2) return NULL;
    return array->nd == 1 || array->dimensions[0] == 1 ? array : NULL;
}

/* rank_omaha(holes, board) -> int: one Omaha hand's rank, hole cards and board each a str or
 * each a one-row uint8 array; 0 when the general path must answer (a bad hand, another form). */
static PyObject *rank_omaha(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    uint16_t found = 0;
    if (nargs != 2 || rank_omaha_text_call == NULL) return PyLong_FromLong(0);
    if (PyUnicode_CheckExact(args[0]) && PyUnicode_CheckExact(args[1])) {
        Py_ssize_t holes_length, board_length;
        const char *holes = PyUnicode_AsUTF8AndSize(args[0], &holes_length);
        const char *board = holes ? PyUnicode_AsUTF8AndSize(args[1], &board_length) : NULL;
        if (board == NULL) PyErr_Clear(); /* e.g. lone surrogates: the general path's error */
        else
            found = rank_omaha_text_call(holes, (uint64_t)holes_length, board,
                                         (uint64_t)board_length);
    } else {
        const Array *holes = one_row(args[0]), *board = one_row(args[1]);
        Py_ssize_t holes_length = holes ? holes->dimensions[holes->nd - 1] : 0;
        Py_ssize_t board_length = board ? board->dimensions[board->nd - 1] : 0;
        if (holes && board && fits_u32(holes_length) && fits_u32(board_length))
            found = rank_omaha_hand_call((const uint8_t *)holes->data, (uint32_t)holes_length,
                                         (const uint8_t *)board->data, (uint32_t)board_length);
    }
    return PyLong_FromLong(found);
}

static PyMethodDef methods[] = {
    {"bind", (PyCFunction)(void (*)(void))bind, METH_FASTCALL,
     "bind(rank_hand, rank_text, rank_cards): the library's exports, by address."},
    {"rank_hand", rank_hand, METH_O, "rank_hand(hand) -> rank, or 0: the batch path answers."},
    {"rank_array", (PyCFunction)(void (*)(void))rank_array, METH_FASTCALL,
     "rank_array(hands, out) -> int, array, or None: the general path answers."},
    {"rank_omaha", (PyCFunction)(void (*)(void))rank_omaha, METH_FASTCALL,
     "rank_omaha(holes, board) -> rank, or 0: the general path answers."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    .m_base = PyModuleDef_HEAD_INIT,
    .m_name = "_fastcall",
    .m_doc = "pp.rank's one-hand and small-batch calls, without cffi's per-call cost.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__fastcall(void) { return PyModule_Create(&module); }
