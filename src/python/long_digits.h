/*
 * long_digits.h -- a CPython int as its sign and base-2**PyLong_SHIFT digits, read in place and
 * built in place.
 *
 * CPython's public conversions between ints and bytes walk one byte at a time (about 15
 * instructions a byte); moving whole digits costs a few per 30 bits. The layout is CPython's
 * own (cpython/longintrepr.h), the one Cython reads too, and it has changed once:
 *  - up to 3.11: `ob_size` holds the sign and the number of digits, `ob_digit` follows;
 *  - 3.12, 3.13: `long_value.lv_tag` holds the digit count shifted left by 3 and the sign in its
 *    low 2 bits (0 positive, 1 zero, 2 negative), `long_value.ob_digit` follows.
 * Later versions, and free-threaded builds, define no CORE_LONG_DIGITS and use the public byte
 * conversions of 3.13+. Digits are normalized: the most significant one is never 0.
 */
#ifndef TVM_FFI_PYTHON_LONG_DIGITS_H_
#define TVM_FFI_PYTHON_LONG_DIGITS_H_

#include "base.h"

#if PY_VERSION_HEX < 0x030E0000 && !defined(Py_GIL_DISABLED)
#define CORE_LONG_DIGITS 1

/* The digits of the int `value` (exact or subclass); *count is 0 for zero. */
static inline const digit* core_long_digits(PyObject* value, Py_ssize_t* count, int* negative) {
  PyLongObject* v = (PyLongObject*)value;
#if PY_VERSION_HEX >= 0x030C0000
  uintptr_t tag = v->long_value.lv_tag;
  *count = (Py_ssize_t)(tag >> 3);
  *negative = (tag & 3) == 2;
  return v->long_value.ob_digit;
#else
  Py_ssize_t size = Py_SIZE(v);
  *count = size < 0 ? -size : size;
  *negative = size < 0;
  return v->ob_digit;
#endif
}

/* A new int with room for `capacity` digits (at least 2), to be filled through the returned
 * array and sealed by core_long_seal. */
static inline PyLongObject* core_long_alloc(Py_ssize_t capacity, digit** digits) {
  PyLongObject* v = _PyLong_New(capacity);
  if (v == NULL) return NULL;
#if PY_VERSION_HEX >= 0x030C0000
  *digits = v->long_value.ob_digit;
#else
  *digits = v->ob_digit;
#endif
  return v;
}

/* Sets the sign and the digit count (>= 2: smaller ints are made by PyLong_FromLongLong, which
 * keeps the small-int cache and 3.12's compact form) of an int from core_long_alloc. */
static inline PyObject* core_long_seal(PyLongObject* v, Py_ssize_t count, int negative) {
#if PY_VERSION_HEX >= 0x030C0000
  v->long_value.lv_tag = ((uintptr_t)count << 3) | (negative ? 2u : 0u);
#else
  Py_SET_SIZE(v, negative ? -count : count);
#endif
  return (PyObject*)v;
}
#endif /* PY_VERSION_HEX < 0x030E0000 && !Py_GIL_DISABLED */

#endif /* TVM_FFI_PYTHON_LONG_DIGITS_H_ */
