/* Big integers: TVMFFIBigIntFromByteArray and TVMFFIBigIntGetContentByteArray. */
#include <stdint.h>

#include "check.h"

/* Builds a value from n native int64 words, least significant first. */
static int from_words(const int64_t* words, size_t n, TVMFFIAny* out) {
  TVMFFIByteArray bytes = {(const char*)words, n * sizeof(int64_t)};
  memset(out, 0x5A, sizeof(*out)); /* the function must overwrite every byte it reports */
  return TVMFFIBigIntFromByteArray(&bytes, out);
}

/* The object's own layout: word count at +24, words from +32. */
static size_t bigint_num_words(const TVMFFIAny* v) {
  return *(const size_t*)((const char*)v->v_obj + 24);
}
static const int64_t* bigint_words(const TVMFFIAny* v) {
  return (const int64_t*)((const char*)v->v_obj + 32);
}

static void check_is_int(const TVMFFIAny* v, int64_t expected) {
  CHECK_EQ_INT(v->type_index, kTVMFFIInt);
  CHECK_EQ_INT(v->zero_padding, 0);
  CHECK_EQ_INT(v->v_int64, expected);
}

/* Checks a BigInt result against the expected minimal words and releases it. */
static void check_is_bigint_and_release(TVMFFIAny* v, const int64_t* expected, size_t n) {
  CHECK_EQ_INT(v->type_index, kTVMFFIBigInt);
  CHECK_EQ_INT(v->zero_padding, 0);
  if (v->type_index != kTVMFFIBigInt) return;
  CHECK_EQ_INT(check_strong_count(v->v_obj), 1);
  CHECK_EQ_INT(TVMFFIObjectGetTypeIndex(v->v_obj), kTVMFFIBigInt);
  CHECK_EQ_INT(bigint_num_words(v), n);
  CHECK(memcmp(bigint_words(v), expected, n * sizeof(int64_t)) == 0);
  TVMFFIByteArray content = TVMFFIBigIntGetContentByteArray(v);
  CHECK(content.data == (const char*)bigint_words(v));
  CHECK_EQ_INT(content.size, n * sizeof(int64_t));
  TVMFFIObjectDecRef(v->v_obj); /* last reference: freed (ASan/LSan check) */
}

static void test_zero(void) {
  TVMFFIAny v;
  CHECK_EQ_INT(from_words(NULL, 0, &v), 0); /* no words at all is zero */
  check_is_int(&v, 0);
  int64_t zero = 0;
  CHECK_EQ_INT(from_words(&zero, 1, &v), 0);
  check_is_int(&v, 0);
  int64_t zeros[4] = {0, 0, 0, 0};
  CHECK_EQ_INT(from_words(zeros, 4, &v), 0);
  check_is_int(&v, 0);
}

static void test_values_fitting_int64_are_ints(void) {
  static const int64_t kValues[] = {1, -1, 42, -42, INT64_MAX, INT64_MIN};
  for (size_t i = 0; i < sizeof(kValues) / sizeof(kValues[0]); ++i) {
    TVMFFIAny v;
    CHECK_EQ_INT(from_words(&kValues[i], 1, &v), 0);
    check_is_int(&v, kValues[i]);
    /* Redundant sign-extension words are dropped, so the value is still an int. */
    int64_t padded[3] = {kValues[i], kValues[i] < 0 ? -1 : 0, kValues[i] < 0 ? -1 : 0};
    CHECK_EQ_INT(from_words(padded, 3, &v), 0);
    check_is_int(&v, kValues[i]);
  }
}

static void test_just_outside_int64(void) {
  TVMFFIAny v;
  /* 2^63: the low word alone would read as negative, so a zero sign word is needed. */
  int64_t two_63[2] = {INT64_MIN, 0};
  CHECK_EQ_INT(from_words(two_63, 2, &v), 0);
  check_is_bigint_and_release(&v, two_63, 2);
  /* -2^63 - 1 */
  int64_t below_min[2] = {INT64_MAX, -1};
  CHECK_EQ_INT(from_words(below_min, 2, &v), 0);
  check_is_bigint_and_release(&v, below_min, 2);
  /* 2^64 and -2^64 */
  int64_t two_64[2] = {0, 1};
  CHECK_EQ_INT(from_words(two_64, 2, &v), 0);
  check_is_bigint_and_release(&v, two_64, 2);
  int64_t minus_two_64[2] = {0, -1};
  CHECK_EQ_INT(from_words(minus_two_64, 2, &v), 0);
  check_is_bigint_and_release(&v, minus_two_64, 2);
}

static void test_multiword_values_and_normalisation(void) {
  TVMFFIAny v;
  int64_t three[3] = {1, 2, 3};
  CHECK_EQ_INT(from_words(three, 3, &v), 0);
  check_is_bigint_and_release(&v, three, 3);
  /* 2^64 with two redundant zero words keeps two words. */
  int64_t padded[4] = {0, 1, 0, 0};
  CHECK_EQ_INT(from_words(padded, 4, &v), 0);
  check_is_bigint_and_release(&v, padded, 2);
  /* A negative value padded with -1 words. */
  int64_t negative[5] = {5, -7, -1, -1, -1};
  CHECK_EQ_INT(from_words(negative, 5, &v), 0);
  check_is_bigint_and_release(&v, negative, 2);
  /* A zero top word that is needed (the word below has its sign bit set) stays. */
  int64_t needed[3] = {7, INT64_MIN, 0};
  CHECK_EQ_INT(from_words(needed, 3, &v), 0);
  check_is_bigint_and_release(&v, needed, 3);
  /* A large value: 64 words. */
  int64_t big[64];
  for (int i = 0; i < 64; ++i) big[i] = (int64_t)(0x0123456789ABCDEFull * (uint64_t)(i + 1));
  big[63] = 12345;
  CHECK_EQ_INT(from_words(big, 64, &v), 0);
  check_is_bigint_and_release(&v, big, 64);
}

static void test_unaligned_input(void) {
  /* The input is bytes: it need not be 8-byte aligned. */
  int64_t words[2] = {0, 3};
  char buf[17];
  memcpy(buf + 1, words, 16);
  TVMFFIByteArray bytes = {buf + 1, 16};
  TVMFFIAny v;
  CHECK_EQ_INT(TVMFFIBigIntFromByteArray(&bytes, &v), 0);
  check_is_bigint_and_release(&v, words, 2);
}

static void test_bad_input(void) {
  char bytes[16] = {0};
  static const size_t kBadSizes[] = {1, 4, 7, 9, 15};
  for (size_t i = 0; i < sizeof(kBadSizes) / sizeof(kBadSizes[0]); ++i) {
    TVMFFIByteArray input = {bytes, kBadSizes[i]};
    TVMFFIAny v;
    memset(&v, 0x5A, sizeof(v));
    CHECK_EQ_INT(TVMFFIBigIntFromByteArray(&input, &v), -1);
    CHECK_RAISED("ValueError", "a multiple of 8");
    CHECK_EQ_INT(v.type_index, kTVMFFINone);
  }
  TVMFFIByteArray null_data = {NULL, 8};
  TVMFFIAny v;
  CHECK_EQ_INT(TVMFFIBigIntFromByteArray(&null_data, &v), -1);
  CHECK_RAISED("ValueError", "NULL data");
  CHECK_EQ_INT(TVMFFIBigIntFromByteArray(NULL, &v), -1);
  CHECK_RAISED("ValueError", "TVMFFIBigIntFromByteArray");
  TVMFFIByteArray empty = {NULL, 0};
  CHECK_EQ_INT(TVMFFIBigIntFromByteArray(&empty, NULL), -1);
  CHECK_RAISED("ValueError", "TVMFFIBigIntFromByteArray");
}

static void test_content_view_round_trip(void) {
  /* An int's view is the 8 payload bytes of the caller's own Any. */
  TVMFFIAny small;
  memset(&small, 0, sizeof(small));
  small.type_index = kTVMFFIInt;
  small.v_int64 = -9;
  TVMFFIByteArray view = TVMFFIBigIntGetContentByteArray(&small);
  CHECK(view.data == (const char*)&small.v_int64);
  CHECK_EQ_INT(view.size, 8);
  TVMFFIAny again;
  CHECK_EQ_INT(TVMFFIBigIntFromByteArray(&view, &again), 0);
  check_is_int(&again, -9);

  /* A BigInt's view feeds straight back into FromByteArray and gives an equal value. */
  int64_t words[3] = {-1, 0, 77};
  TVMFFIAny big;
  CHECK_EQ_INT(from_words(words, 3, &big), 0);
  view = TVMFFIBigIntGetContentByteArray(&big);
  CHECK_EQ_INT(TVMFFIBigIntFromByteArray(&view, &again), 0);
  CHECK(again.v_obj != big.v_obj); /* a fresh object, not a shared one */
  CHECK_EQ_INT(check_strong_count(big.v_obj), 1);
  check_is_bigint_and_release(&again, words, 3);
  check_is_bigint_and_release(&big, words, 3);
}

static void test_content_view_of_other_values_is_empty(void) {
  TVMFFIAny v;
  memset(&v, 0, sizeof(v));
  int32_t kinds[] = {kTVMFFINone, kTVMFFIBool, kTVMFFIFloat, kTVMFFIOpaquePtr};
  for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); ++i) {
    v.type_index = kinds[i];
    v.v_int64 = 1;
    TVMFFIByteArray view = TVMFFIBigIntGetContentByteArray(&v);
    CHECK(view.data == NULL);
    CHECK_EQ_INT(view.size, 0);
  }
  TVMFFIByteArray text = check_ba("not a number at all");
  CHECK_EQ_INT(TVMFFIStringFromByteArray(&text, &v), 0);
  TVMFFIByteArray view = TVMFFIBigIntGetContentByteArray(&v);
  CHECK(view.data == NULL);
  CHECK_EQ_INT(view.size, 0);
  TVMFFIObjectDecRef(v.v_obj);
  view = TVMFFIBigIntGetContentByteArray(NULL);
  CHECK(view.data == NULL);
}

static void test_refcount_release(void) {
  int64_t words[2] = {0, 1};
  TVMFFIAny v;
  CHECK_EQ_INT(from_words(words, 2, &v), 0);
  CHECK_EQ_INT(check_strong_count(v.v_obj), 1);
  TVMFFIObjectIncRef(v.v_obj);
  CHECK_EQ_INT(check_strong_count(v.v_obj), 2);
  TVMFFIObjectDecRef(v.v_obj);
  CHECK_EQ_INT(check_strong_count(v.v_obj), 1);
  /* An owned copy through the Any API shares the object. */
  TVMFFIAny copy;
  CHECK_EQ_INT(TVMFFIAnyViewToOwnedAny(&v, &copy), 0);
  CHECK(copy.v_obj == v.v_obj);
  CHECK_EQ_INT(check_strong_count(v.v_obj), 2);
  TVMFFIObjectDecRef(copy.v_obj);
  TVMFFIObjectDecRef(v.v_obj); /* freed; LSan reports a leak if not */
}

int main(void) {
  RUN(test_zero);
  RUN(test_values_fitting_int64_are_ints);
  RUN(test_just_outside_int64);
  RUN(test_multiword_values_and_normalisation);
  RUN(test_unaligned_input);
  RUN(test_bad_input);
  RUN(test_content_view_round_trip);
  RUN(test_content_view_of_other_values_is_empty);
  RUN(test_refcount_release);
  return CHECK_MAIN_RESULT();
}
