/* Loads pypoker/_fastcall.pyd beside a stand-in python3.dll (python3_stand_in.c) and
 * pypoker.dll, calls PyInit__fastcall, binds the extension to the library's exports by address
 * as pypoker/_native.py does, and ranks each hand given (seven card ids a line on stdin) with
 * its rank_hand, printing one rank a line. For tests/test_wheels.py, under Wine. */
#include <windows.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Object {
    intptr_t refcount;
    void *type;
} Object;
typedef struct {
    Object head;
    intptr_t value;
} Int;
typedef struct {
    Object head;
    intptr_t length;
    Object **items;
} Sequence;
typedef struct { /* NumPy's PyArrayObject_fields head, as fastcall.c reads it */
    Object head;
    char *data;
    int nd;
    intptr_t *dimensions, *strides;
    Object *base, *descr;
    int flags;
} Array;
typedef struct {
    const char *name;
    void *function;
    int flags;
    const char *doc;
} Method;
typedef struct {
    Object head;
    void *init;
    intptr_t index;
    Object *copy;
    const char *name, *doc;
    intptr_t size;
    Method *methods;
} ModuleDef;
typedef Object *(*Fastcall)(Object *, Object *const *, intptr_t);
typedef Object *(*OneArgument)(Object *, Object *);

static void *find(HMODULE module, const char *name) {
    void *found = (void *)GetProcAddress(module, name);
    if (found == NULL) {
        printf("no %s\n", name);
        exit(1);
    }
    return found;
}

static void *method(ModuleDef *def, const char *name) {
    for (Method *m = def->methods; m->name; m++)
        if (!strcmp(m->name, name)) return m->function;
    printf("no method %s\n", name);
    exit(1);
}

int main(void) {
    HMODULE python = LoadLibraryA("python3.dll"), extension = LoadLibraryA("_fastcall.pyd"),
            library = LoadLibraryA("pypoker.dll");
    if (!python || !extension || !library) {
        printf("LoadLibrary failed: error %lu\n", GetLastError());
        return 1;
    }
    Object *(*init)(void) = (Object *(*)(void))find(extension, "PyInit__fastcall");
    if (init() == NULL) return printf("PyInit__fastcall failed\n"), 1;
    ModuleDef *def = *(ModuleDef **)find(python, "module_def");
    printf("module %s\n", def->name);
    void *list_type = find(python, "PyList_Type"), *tuple_type = find(python, "PyTuple_Type"),
         *int_type = find(python, "PyLong_Type");
    const char **error_text = (const char **)find(python, "error_text");

    const char *names[5] = {"pp_rank_hand", "pp_rank_text", "pp_rank_cards",
                            "pp_rank_omaha_hand", "pp_rank_omaha_text"};
    Int addresses[5];
    Object *address_items[5];
    for (int i = 0; i < 5; i++) {
        addresses[i] = (Int){{1, int_type}, (intptr_t)find(library, names[i])};
        address_items[i] = &addresses[i].head;
    }
    Sequence exports = {{1, tuple_type}, 5, address_items};
    static char metatype[1024], ndarray[1024];
    *(void **)(ndarray + sizeof(intptr_t)) = metatype; /* ndarray is a type: its type's flags */
    Object uint8 = {1, 0}, uint16 = {1, 0}, empty = {1, 0};
    Int small = {{1, int_type}, 16384};
    char probe_data[15] = {0};
    intptr_t probe_shape[2] = {3, 5}, strided_shape[2] = {3, 3};
    Array probe = {{1, ndarray}, probe_data, 2, probe_shape, 0, 0, &uint8, 0x0001 | 0x0400};
    Array strided = {{1, ndarray}, probe_data, 2, strided_shape, 0, 0, &uint8, 0};
    Int probe_address = {{1, int_type}, (intptr_t)probe_data};
    Object *arguments[9] = {&exports.head, (Object *)ndarray, &empty,        &uint8,
                            &uint16,       &small.head,       &probe.head,   &probe_address.head,
                            &strided.head};
    Fastcall bind = (Fastcall)method(def, "bind");
    if (bind(NULL, arguments, 9) == NULL) return printf("bind failed: %s\n", *error_text), 1;
    printf("bound\n");

    OneArgument rank_hand = (OneArgument)method(def, "rank_hand");
    long ids[7];
    while (scanf("%ld %ld %ld %ld %ld %ld %ld", &ids[0], &ids[1], &ids[2], &ids[3], &ids[4],
                 &ids[5], &ids[6]) == 7) {
        Int cards[7];
        Object *items[7];
        for (int i = 0; i < 7; i++) {
            cards[i] = (Int){{1, int_type}, ids[i]};
            items[i] = &cards[i].head;
        }
        Sequence hand = {{1, list_type}, 7, items};
        Object *rank = rank_hand(NULL, &hand.head);
        printf("%ld\n", rank ? (long)((Int *)rank)->value : -1L);
    }
    return 0;
}
