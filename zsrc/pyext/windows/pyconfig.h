/* pyconfig.h for building pypoker._fastcall for 64-bit Windows (x86-64, arm64) with Zig's
 * clang and MinGW-w64 headers, against the Limited API (Py_LIMITED_API, fastcall.c).
 *
 * CPython's headers are the same on every platform but for pyconfig.h, which on Windows is
 * PC/pyconfig.h (PC/pyconfig.h.in since 3.13), not the configure-generated one of this
 * machine. build.zig builds a copy of the given Python headers with this file in its place.
 * It holds only the configuration the Limited API headers read, with the values of CPython's
 * PC/pyconfig.h for MS_WIN64 (CPython's source, PSF license; values, not code): Windows is
 * LLP64 (long is 32 bits), and the interpreter is a DLL whose symbols are imported
 * (Py_ENABLE_SHARED + HAVE_DECLSPEC_DLL give PyAPI_FUNC/PyAPI_DATA __declspec(dllimport)).
 * Not the free-threaded build (Py_GIL_DISABLED is not defined): the stable ABI has none. */
#ifndef Py_CONFIG_H
#define Py_CONFIG_H

#if !defined(_WIN64) || !defined(__MINGW32__)
#error "this pyconfig.h is for 64-bit Windows with MinGW-w64 headers (zig -target *-windows-gnu)"
#endif

#define MS_WIN32
#define MS_WIN64
#define MS_WINDOWS
#define NT_THREADS
#define WITH_THREAD
#define PLATFORM "win32"

#define Py_ENABLE_SHARED 1
#define MS_COREDLL
#define HAVE_DECLSPEC_DLL

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
typedef long long Py_ssize_t;
#define PY_SSIZE_T_MAX LLONG_MAX
#define HAVE_PY_SSIZE_T 1
#define HAVE_SSIZE_T 1

#define PY_LONG_LONG long long
#define PY_LLONG_MIN LLONG_MIN
#define PY_LLONG_MAX LLONG_MAX
#define PY_ULLONG_MAX ULLONG_MAX
#define PY_UINT32_T uint32_t
#define PY_UINT64_T uint64_t
#define PY_INT32_T int32_t
#define PY_INT64_T int64_t

#define LONG_BIT 32
#define WORD_BIT 32
#define SIZEOF_SHORT 2
#define SIZEOF_INT 4
#define SIZEOF_LONG 4
#define ALIGNOF_LONG 4
#define SIZEOF_LONG_LONG 8
#define SIZEOF_DOUBLE 8
#define SIZEOF_FLOAT 4
#define SIZEOF_VOID_P 8
#define SIZEOF_SIZE_T 8
#define ALIGNOF_SIZE_T 8
#define ALIGNOF_MAX_ALIGN_T 8
#define SIZEOF_TIME_T 8
#define SIZEOF_OFF_T 4
#define SIZEOF_FPOS_T 8
#define SIZEOF_HKEY 8
#define SIZEOF_WCHAR_T 2
#define SIZEOF__BOOL 1
#define SIZEOF_PID_T SIZEOF_INT
#define HAVE_LARGEFILE_SUPPORT
#define DOUBLE_IS_LITTLE_ENDIAN_IEEE754 1

#define STDC_HEADERS 1
#define HAVE_ERRNO_H 1
#define HAVE_STDDEF_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_WCHAR_H 1
#define HAVE_DYNAMIC_LOADING
#define WITH_DOC_STRINGS 1
#define WITH_PYMALLOC 1

/* The values above, against the compiler's own. */
#include <stddef.h>
#include <time.h>
#include <wchar.h>
_Static_assert(sizeof(short) == SIZEOF_SHORT && sizeof(int) == SIZEOF_INT &&
                   sizeof(long) == SIZEOF_LONG && sizeof(long long) == SIZEOF_LONG_LONG,
               "pyconfig.h: integer sizes");
_Static_assert(sizeof(void *) == SIZEOF_VOID_P && sizeof(size_t) == SIZEOF_SIZE_T &&
                   sizeof(Py_ssize_t) == SIZEOF_SIZE_T && sizeof(wchar_t) == SIZEOF_WCHAR_T &&
                   sizeof(time_t) == SIZEOF_TIME_T,
               "pyconfig.h: pointer, size, wchar_t and time_t sizes");

#endif /* !Py_CONFIG_H */
