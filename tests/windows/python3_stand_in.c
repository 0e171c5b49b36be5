/* A stand-in for python3.dll with the names pypoker/_fastcall.pyd imports (zsrc/pyext/
 * python3.def), each doing just what load_fastcall.c needs, so Wine can load the Windows
 * extension and drive it without a Windows CPython. Objects are the PyObject head
 * {refcount, type} and a payload; the type objects are blank, told apart by address. */
#include <stdint.h>

#define EXPORT __declspec(dllexport)

typedef struct Object {
    intptr_t refcount;
    void *type;
} Object;
typedef struct {
    Object head;
    intptr_t value;
} Int; /* a pointer-sized payload: PyLong_AsVoidPtr reads addresses from it */
typedef struct {
    Object head;
    intptr_t length;
    Object **items;
} Sequence;

EXPORT char PyList_Type[1024], PyTuple_Type[1024], PyLong_Type[1024], PyUnicode_Type[1024];
EXPORT Object _Py_NoneStruct = {1, 0};
EXPORT Object *PyExc_ImportError, *PyExc_TypeError, *PyExc_ValueError;
EXPORT const char *error_text; /* the last PyErr_SetString's, or NULL */
EXPORT void *module_def;       /* what PyInit__fastcall passed PyModule_Create2 */
EXPORT int deallocations;

static Object error_object, module;
static Object *error;
static Int ints[64];
static int next_int;

EXPORT void PyErr_Clear(void) { error = 0, error_text = 0; }
EXPORT Object *PyErr_Occurred(void) { return error; }
EXPORT void PyErr_SetString(Object *type, const char *text) {
    (void)type;
    error = &error_object, error_text = text;
}
EXPORT Object *PyList_GetItem(Object *list, intptr_t i) { return ((Sequence *)list)->items[i]; }
EXPORT intptr_t PyList_Size(Object *list) { return ((Sequence *)list)->length; }
EXPORT Object *PyTuple_GetItem(Object *tuple, intptr_t i) { return ((Sequence *)tuple)->items[i]; }
EXPORT intptr_t PyTuple_Size(Object *tuple) { return ((Sequence *)tuple)->length; }
EXPORT long PyLong_AsLong(Object *i) { return (long)((Int *)i)->value; }
EXPORT intptr_t PyLong_AsSsize_t(Object *i) { return ((Int *)i)->value; }
EXPORT void *PyLong_AsVoidPtr(Object *i) { return (void *)((Int *)i)->value; }
EXPORT Object *PyLong_FromSsize_t(intptr_t value) {
    Int *i = &ints[next_int++ % 64];
    i->head.refcount = 1, i->head.type = PyLong_Type, i->value = value;
    return &i->head;
}
EXPORT Object *PyLong_FromLong(long value) { return PyLong_FromSsize_t(value); }
EXPORT unsigned long PyType_GetFlags(void *type) {
    if (type == PyTuple_Type) return 1UL << 26; /* Py_TPFLAGS_TUPLE_SUBCLASS */
    if (type == PyLong_Type) return 1UL << 24;  /* Py_TPFLAGS_LONG_SUBCLASS */
    return 1UL << 31;                           /* Py_TPFLAGS_TYPE_SUBCLASS: a type's type */
}
EXPORT Object *PyModule_Create2(void *def, int api_version) {
    (void)api_version;
    module_def = def;
    return &module;
}
EXPORT Object *PyObject_CallFunctionObjArgs(Object *callable, ...) {
    (void)callable;
    return 0;
}
EXPORT const char *PyUnicode_AsUTF8AndSize(Object *text, intptr_t *length) {
    (void)text;
    *length = 0;
    return 0;
}
EXPORT void _Py_Dealloc(Object *object) {
    (void)object;
    deallocations++;
}
