/*
 * bigint.c -- Python ints beyond int64 <-> ffi.BigInt content: two's complement 64-bit words,
 * least significant word first, each word in native byte order.
 *
 * CPython converts between ints and little-endian byte arrays in C: _PyLong_AsByteArray and
 * _PyLong_FromByteArray up to 3.12, the public PyLong_AsNativeBytes / PyLong_FromNativeBytes from
 * 3.13 (where the former grew a parameter). Going through int.to_bytes / int.from_bytes instead
 * costs a method lookup, an argument tuple and a keyword dict per conversion (~2 us a round trip).
 * A big-endian host swaps each word, since the bytes are little-endian throughout.
 */
#include "bigint.h"

static void words_to_little_endian(char* data, size_t size) {
#if PY_BIG_ENDIAN
  for (size_t w = 0; w + 8 <= size; w += 8) {
    for (int i = 0; i < 4; ++i) {
      char c = data[w + i];
      data[w + i] = data[w + 7 - i];
      data[w + 7 - i] = c;
    }
  }
#else
  (void)data;
  (void)size;
#endif
}

/* Writes `value` as `size` little-endian two's complement bytes (the size always suffices). */
static int int_to_little_endian(PyObject* value, unsigned char* out, size_t size) {
#if PY_VERSION_HEX >= 0x030D0000
  Py_ssize_t needed =
      PyLong_AsNativeBytes(value, out, (Py_ssize_t)size, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
  return needed < 0 ? -1 : 0;
#else
  return _PyLong_AsByteArray((PyLongObject*)value, out, size, /*little_endian=*/1, /*is_signed=*/1);
#endif
}

static PyObject* int_from_little_endian(const unsigned char* data, size_t size) {
#if PY_VERSION_HEX >= 0x030D0000
  return PyLong_FromNativeBytes(data, size, Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
  return _PyLong_FromByteArray(data, size, /*little_endian=*/1, /*is_signed=*/1);
#endif
}

int core_bigint_from_int(PyObject* value, TVMFFIAny* owned, size_t* bits) {
  *bits = _PyLong_NumBits(value);
  if (*bits == (size_t)-1 && PyErr_Occurred()) return -1;
  size_t nbytes = (*bits / 64 + 1) * 8; /* +1 bit for the sign, whole words */
  /* Stack room for ints below 2,048 bits; longer ones borrow the heap. */
  unsigned char local[256];
  unsigned char* data = nbytes <= sizeof(local) ? local : PyMem_Malloc(nbytes);
  if (data == NULL) {
    PyErr_NoMemory();
    return -1;
  }
  int rc = int_to_little_endian(value, data, nbytes);
  if (rc == 0) {
    words_to_little_endian((char*)data, nbytes); /* the same swap both ways */
    TVMFFIByteArray words = {(const char*)data, nbytes};
    rc = TVMFFIBigIntFromByteArray(&words, owned) != 0 ? 1 : 0;
  }
  if (data != local) PyMem_Free(data);
  return rc;
}

PyObject* core_int_from_bigint_words(const char* data, size_t size) {
#if PY_BIG_ENDIAN
  unsigned char* copy = PyMem_Malloc(size > 0 ? size : 1);
  if (copy == NULL) return PyErr_NoMemory();
  memcpy(copy, data, size);
  words_to_little_endian((char*)copy, size);
  PyObject* out = int_from_little_endian(copy, size);
  PyMem_Free(copy);
  return out;
#else
  return int_from_little_endian((const unsigned char*)data, size);
#endif
}
