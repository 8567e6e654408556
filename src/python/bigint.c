/*
 * bigint.c -- Python ints beyond int64 <-> ffi.BigInt content: two's complement 64-bit words,
 * least significant word first, each word in native byte order.
 *
 * Where CPython's int layout is known (long_digits.h) the words are made from and turned into
 * its digits directly: sign and magnitude on the Python side, so a negative value is negated
 * word by word. Elsewhere CPython converts through little-endian byte arrays: the public
 * PyLong_AsNativeBytes / PyLong_FromNativeBytes (3.13+); a big-endian host swaps each word
 * there, since those bytes are little-endian throughout. Going through int.to_bytes /
 * int.from_bytes instead would cost a method lookup, an argument tuple and a keyword dict per
 * conversion (~2 us a round trip).
 */
#include "bigint.h"

#include <string.h>

#include "long_digits.h"

/* Ints up to this many words convert on the stack; longer ones borrow the heap. */
#define STACK_WORDS 32

static uint64_t* borrow_words(uint64_t* local, size_t count) {
  if (count <= STACK_WORDS) return local;
  uint64_t* heap = (uint64_t*)PyMem_Malloc(count * sizeof(uint64_t));
  if (heap == NULL) PyErr_NoMemory();
  return heap;
}

static int make_bigint(const uint64_t* words, size_t count, TVMFFIAny* owned) {
  TVMFFIByteArray bytes = {(const char*)words, count * sizeof(uint64_t)};
  return TVMFFIBigIntFromByteArray(&bytes, owned) != 0 ? 1 : 0;
}

#ifdef CORE_LONG_DIGITS

/* words = -words, two's complement, in place. */
static void negate_words(uint64_t* words, size_t count) {
  uint64_t carry = 1;
  for (size_t i = 0; i < count; ++i) {
    words[i] = ~words[i] + carry;
    carry = carry && words[i] == 0;
  }
}

static size_t bit_length(uint64_t x) { return x == 0 ? 0 : 64 - (size_t)__builtin_clzll(x); }

int core_bigint_from_int(PyObject* value, TVMFFIAny* owned, size_t* bits) {
  Py_ssize_t ndigits;
  int negative;
  const digit* digits = core_long_digits(value, &ndigits, &negative);
  *bits = ndigits == 0 ? 0
                       : (size_t)(ndigits - 1) * PyLong_SHIFT + bit_length(digits[ndigits - 1]);
  size_t count = *bits / 64 + 1; /* +1 bit for the sign, whole words */
  uint64_t local[STACK_WORDS];
  uint64_t* words = borrow_words(local, count);
  if (words == NULL) return -1;
  /* Digits in at the top of a 128-bit window, whole words out at its bottom. */
  unsigned __int128 window = 0;
  unsigned filled = 0;
  size_t made = 0;
  for (Py_ssize_t i = 0; i < ndigits; ++i) {
    window |= (unsigned __int128)digits[i] << filled;
    filled += PyLong_SHIFT;
    if (filled >= 64) {
      words[made++] = (uint64_t)window;
      window >>= 64;
      filled -= 64;
    }
  }
  while (made < count) { /* the rest of the window, then the sign word's zeros */
    words[made++] = (uint64_t)window;
    window >>= 64;
  }
  if (negative) negate_words(words, count);
  int rc = make_bigint(words, count, owned);
  if (words != local) PyMem_Free(words);
  return rc;
}

/* The int of magnitude `words` (count >= 1, the last one non-zero). */
static PyObject* int_from_magnitude(const uint64_t* words, size_t count, int negative) {
  size_t bits = (count - 1) * 64 + bit_length(words[count - 1]);
  if (bits < 64) {
    int64_t magnitude = (int64_t)words[0];
    return PyLong_FromLongLong(negative ? -magnitude : magnitude);
  }
  Py_ssize_t ndigits = (Py_ssize_t)((bits + PyLong_SHIFT - 1) / PyLong_SHIFT);
  digit* digits;
  PyLongObject* out = core_long_alloc(ndigits, &digits);
  if (out == NULL) return NULL;
  /* Words in at the top of a 128-bit window, digits out at its bottom. */
  unsigned __int128 window = 0;
  unsigned filled = 0;
  size_t used = 0;
  for (Py_ssize_t i = 0; i < ndigits; ++i) {
    if (filled < PyLong_SHIFT && used < count) {
      window |= (unsigned __int128)words[used++] << filled;
      filled += 64;
    }
    digits[i] = (digit)(window & PyLong_MASK);
    window >>= PyLong_SHIFT;
    filled = filled >= PyLong_SHIFT ? filled - PyLong_SHIFT : 0;
  }
  return core_long_seal(out, ndigits, negative);
}

PyObject* core_int_from_bigint_words(const char* data, size_t size) {
  size_t count = size / sizeof(uint64_t);
  if (count == 0) return PyLong_FromLong(0);
  uint64_t local[STACK_WORDS];
  uint64_t* words = borrow_words(local, count);
  if (words == NULL) return NULL;
  memcpy(words, data, count * sizeof(uint64_t)); /* the content need not be 8-byte aligned */
  int negative = (words[count - 1] >> 63) != 0;
  if (negative) negate_words(words, count);
  while (count > 1 && words[count - 1] == 0) --count;
  PyObject* out = int_from_magnitude(words, count, negative);
  if (words != local) PyMem_Free(words);
  return out;
}

#else /* !CORE_LONG_DIGITS: CPython's byte conversions */

static void words_to_little_endian(uint64_t* words, size_t count) {
#if PY_BIG_ENDIAN
  for (size_t i = 0; i < count; ++i) words[i] = __builtin_bswap64(words[i]);
#else
  (void)words;
  (void)count;
#endif
}

int core_bigint_from_int(PyObject* value, TVMFFIAny* owned, size_t* bits) {
  *bits = _PyLong_NumBits(value);
  if (*bits == (size_t)-1 && PyErr_Occurred()) return -1;
  size_t count = *bits / 64 + 1; /* +1 bit for the sign, whole words */
  uint64_t local[STACK_WORDS];
  uint64_t* words = borrow_words(local, count);
  if (words == NULL) return -1;
  Py_ssize_t needed = PyLong_AsNativeBytes(value, words, (Py_ssize_t)(count * sizeof(uint64_t)),
                                           Py_ASNATIVEBYTES_LITTLE_ENDIAN);
  int rc = -1;
  if (needed >= 0) {
    words_to_little_endian(words, count); /* the same swap both ways */
    rc = make_bigint(words, count, owned);
  }
  if (words != local) PyMem_Free(words);
  return rc;
}

PyObject* core_int_from_bigint_words(const char* data, size_t size) {
  size_t count = size / sizeof(uint64_t);
  uint64_t local[STACK_WORDS];
  uint64_t* words = borrow_words(local, count > 0 ? count : 1);
  if (words == NULL) return NULL;
  memcpy(words, data, count * sizeof(uint64_t));
  words_to_little_endian(words, count);
  PyObject* out = PyLong_FromNativeBytes(words, count * sizeof(uint64_t),
                                         Py_ASNATIVEBYTES_LITTLE_ENDIAN);
  if (words != local) PyMem_Free(words);
  return out;
}

#endif /* CORE_LONG_DIGITS */
