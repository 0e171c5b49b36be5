/* pypoker._fastcall: the one-hand and small-batch calls of pp.rank, as a CPython extension.
 *
 * Why it exists: a call through cffi's ABI mode costs 0.2-0.35 us before any work (argument
 * conversion by libffi), and a NumPy array's pointer another 0.15-0.2 us (ffi.from_buffer).
 * A bot or a notebook ranking one hand, or ten, pays that on every call. This module reads the
 * hand straight from the Python object (list, tuple, str, or an array's buffer) and calls the
 * library's own exports, so one call costs what the interpreter's call costs. An array is read
 * by NumPy's own inline accessors (ndarraytypes.h: the struct fields every NumPy extension
 * reads, the same in NumPy 1.x and 2.x), not the buffer protocol, whose first export of an
 * array builds a format string (0.1-0.2 us for each new array). No NumPy function is called,
 * so the module needs no import_array and runs against any NumPy pypoker supports.
 *
 * It is optional and holds no ranking code: pypoker/_native.py passes it the addresses of
 * pp_rank_hand, pp_rank_text and pp_rank_cards from the library cffi loaded (bind), so both
 * share one library, one CPU-level choice and one set of tables. Where it cannot be built (no
 * Python headers, a cross-built wheel) pypoker runs the cffi paths, with the same results.
 *
 * Every function answers "not mine" (0 or -1) for anything but the plain case; the caller then
 * takes the batch path, which ranks it or raises the batch path's error. So errors are never
 * written twice, and this file never decides what a bad hand is.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/ndarraytypes.h>

#include "pypoker.h"

typedef uint16_t (*rank_hand_fn)(const char *cards, uint32_t k);
typedef uint16_t (*rank_text_fn)(const char *text, uint64_t length);
typedef pp_status (*rank_cards_fn)(const uint8_t *cards, uint64_t n, uint32_t k, uint16_t *out,
                                   pp_error *err);

static rank_hand_fn rank_hand_call;
static rank_text_fn rank_text_call;
static rank_cards_fn rank_cards_call;
static PyTypeObject *ndarray_type; /* numpy.ndarray: subclasses take the general path */
static PyObject *new_ranks;        /* numpy.empty */
static PyObject *ranks_dtype;      /* numpy.dtype("uint16") */
static Py_ssize_t small_batch_bytes; /* bigger batches: the general path, which uses threads */

#define HAND_CARDS_MAX 7 /* a hand of ids has 0..7 cards; pp_rank_hand takes 1..7 */
#define TEXT_MAX 64      /* characters: longer text takes the batch parser's path */

static void keep(PyObject **slot, PyObject *object) {
    Py_INCREF(object);
    Py_XSETREF(*slot, object);
}

/* bind(rank_hand, rank_text, rank_cards, numpy.ndarray, numpy.empty, numpy.dtype("uint16"),
 * small_batch_bytes): the exports' addresses, as ints, what it takes to make an array of
 * ranks, and ranking.SMALL_BATCH_BYTES (the one definition of a small batch). */
static PyObject *bind(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 7 || !PyType_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError,
                        "bind takes three addresses, ndarray, empty, a dtype and a size");
        return NULL;
    }
    Py_ssize_t small = PyLong_AsSsize_t(args[6]);
    if (small < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a negative size");
        return NULL;
    }
    void *addresses[3];
    for (Py_ssize_t i = 0; i < 3; i++) {
        addresses[i] = PyLong_AsVoidPtr(args[i]);
        if (addresses[i] == NULL) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a null address");
            return NULL;
        }
    }
    rank_hand_call = (rank_hand_fn)addresses[0];
    rank_text_call = (rank_text_fn)addresses[1];
    rank_cards_call = (rank_cards_fn)addresses[2];
    keep((PyObject **)&ndarray_type, args[3]);
    keep(&new_ranks, args[4]);
    keep(&ranks_dtype, args[5]);
    small_batch_bytes = small;
    Py_RETURN_NONE;
}

/* The rank of a list or tuple of 1..7 ints, each 0..255 (pp_rank_hand checks the cards). */
static uint16_t rank_sequence(PyObject *hand) {
    Py_ssize_t k = PySequence_Fast_GET_SIZE(hand);
    if (k < 1 || k > HAND_CARDS_MAX) return 0;
    PyObject **items = PySequence_Fast_ITEMS(hand);
    char cards[HAND_CARDS_MAX];
    for (Py_ssize_t i = 0; i < k; i++) {
        if (!PyLong_CheckExact(items[i])) return 0; /* bools and the like: the batch path */
        long id = PyLong_AsLong(items[i]);
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
    return length <= TEXT_MAX ? rank_text_call(utf8, (uint64_t)length) : 0;
}

/* A plain NumPy array of this dtype (its exact type, C-contiguous, native byte order), or
 * NULL: anything else is the general path's. */
static PyArrayObject *plain_array(PyObject *object, int type_num) {
    if (ndarray_type == NULL || Py_TYPE(object) != ndarray_type) return NULL;
    PyArrayObject *array = (PyArrayObject *)object;
    PyArray_Descr *dtype = PyArray_DESCR(array);
    if (dtype->type_num != type_num || !PyArray_ISNBO(dtype->byteorder)) return NULL;
    return PyArray_IS_C_CONTIGUOUS(array) ? array : NULL;
}

/* rank_hand(hand) -> int: one hand's rank, or 0 when the batch path must answer (a bad hand,
 * or a form this call does not read): a list or tuple of ids, or a str. */
static PyObject *rank_hand(PyObject *self, PyObject *hand) {
    (void)self;
    uint16_t found = 0;
    if (rank_hand_call == NULL)
        found = 0;
    else if (PyList_CheckExact(hand) || PyTuple_CheckExact(hand))
        found = rank_sequence(hand);
    else if (PyUnicode_CheckExact(hand))
        found = rank_string(hand);
    return PyLong_FromLong(found);
}

/* ranks of an (n, k) uint8 array into out (a plain (n,) uint16 array, or a new one when out is
 * None), of at most small_batch_bytes of cards. Returns out (a new reference), or NULL for the general path:
 * another shape, an out that does not fit or shares the hands' memory, a bad hand. */
static PyObject *rank_rows(PyArrayObject *hands, PyObject *out_object) {
    npy_intp n = PyArray_DIM(hands, 0), k = PyArray_DIM(hands, 1);
    if (n < 1 || k > HAND_CARDS_MAX || n * (k > 0 ? k : 1) > small_batch_bytes) return NULL;
    PyObject *ranks;
    if (out_object == Py_None) {
        PyObject *size = PyLong_FromSsize_t(n);
        if (size == NULL) return NULL;
        PyObject *args[2] = {size, ranks_dtype};
        ranks = PyObject_Vectorcall(new_ranks, args, 2, NULL);
        Py_DECREF(size);
        if (ranks == NULL) return NULL;
    } else {
        PyArrayObject *out = plain_array(out_object, NPY_UINT16);
        if (out == NULL || PyArray_NDIM(out) != 1 || PyArray_DIM(out, 0) != n ||
            !PyArray_ISWRITEABLE(out))
            return NULL;
        const char *cards = PyArray_BYTES(hands), *at = PyArray_BYTES(out);
        if (cards < at + 2 * n && at < cards + n * k) return NULL; /* they overlap */
        Py_INCREF(out_object);
        ranks = out_object;
    }
    pp_error err;
    pp_status status = rank_cards_call((const uint8_t *)PyArray_BYTES(hands), (uint64_t)n,
                                       (uint32_t)k,
                                       (uint16_t *)PyArray_BYTES((PyArrayObject *)ranks), &err);
    if (status == PP_OK) return ranks;
    Py_DECREF(ranks); /* out holds partial ranks: the general path zeroes it and raises */
    return NULL;
}

/* rank_array(hands, out) -> int, array or None: a plain uint8 array of card ids ranked, a 1-D
 * one of 1..7 cards as one hand (an int; out is not used, as on the general path), an (n, k)
 * one as a small batch (into out, or a new array); None where the general path answers. */
static PyObject *rank_array(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    PyArrayObject *hands = nargs == 2 && rank_cards_call != NULL
                               ? plain_array(args[0], NPY_UINT8)
                               : NULL;
    PyObject *ranked = NULL;
    if (hands != NULL && PyArray_NDIM(hands) == 1) {
        npy_intp k = PyArray_DIM(hands, 0);
        uint16_t found = k >= 1 && k <= HAND_CARDS_MAX
                             ? rank_hand_call((const char *)PyArray_DATA(hands), (uint32_t)k)
                             : 0;
        if (found) ranked = PyLong_FromLong(found);
    } else if (hands != NULL && PyArray_NDIM(hands) == 2) {
        ranked = rank_rows(hands, args[1]);
    }
    if (ranked != NULL || PyErr_Occurred()) return ranked; /* e.g. no memory: raised */
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"bind", (PyCFunction)(void (*)(void))bind, METH_FASTCALL,
     "bind(rank_hand, rank_text, rank_cards): the library's exports, by address."},
    {"rank_hand", rank_hand, METH_O, "rank_hand(hand) -> rank, or 0: the batch path answers."},
    {"rank_array", (PyCFunction)(void (*)(void))rank_array, METH_FASTCALL,
     "rank_array(hands, out) -> int, array, or None: the general path answers."},
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
