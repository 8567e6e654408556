/* ffi.List: the layout kernels read and grow inline (TVMFFISeqCell at +24, a separate buffer
 * freed by data_deleter), every ffi.List* global function with its error paths, and reference
 * counts of the elements. */
#include <stdint.h>

#include "check.h"

/* A list of the given ints, or NULL. */
static void* make_list(const int64_t* values, int n) {
  TVMFFIAny args[16], r;
  for (int i = 0; i < n; ++i) args[i] = any_int(values[i]);
  if (call_global("ffi.List", args, n, &r) != 0) return NULL;
  return r.v_obj;
}

/* Checks the list holds exactly the ints `expect`. */
static void check_ints(void* list, const int64_t* expect, int n) {
  TVMFFISeqCell* cell = seq(list);
  CHECK_EQ_INT(cell->size, n);
  if (cell->size != n) return;
  const TVMFFIAny* items = (const TVMFFIAny*)cell->data;
  for (int i = 0; i < n; ++i) {
    CHECK_EQ_INT(items[i].type_index, kTVMFFIInt);
    CHECK_EQ_INT(items[i].v_int64, expect[i]);
  }
}

static int call1(const char* name, void* list, TVMFFIAny a, TVMFFIAny* r) {
  TVMFFIAny args[2] = {any_obj(list), a};
  return call_global(name, args, 2, r);
}

static void test_layout_and_growth(void) {
  TVMFFIAny r;
  CHECK(call_global("ffi.List", NULL, 0, &r) == 0);
  CHECK_EQ_INT(r.type_index, kTVMFFIList);
  void* list = r.v_obj;
  TVMFFISeqCell* cell = seq(list);
  CHECK_EQ_INT(cell->size, 0);
  CHECK(cell->data_deleter != NULL); /* kernels call it when they grow the list */
  int64_t expect[40];
  for (int i = 0; i < 40; ++i) {
    expect[i] = i * 3;
    CHECK(call1("ffi.ListAppend", list, any_int(i * 3), &r) == 0);
    CHECK_EQ_INT(r.type_index, kTVMFFINone);
    CHECK(cell->capacity >= cell->size);
  }
  check_ints(list, expect, 40);
  TVMFFIObjectDecRef(list);
}

/* What a reference kernel does inline when it grows a List we made: a new ::operator new
 * buffer (malloc here), move, then the existing data_deleter on the old buffer, which it keeps. */
static void test_kernel_style_growth(void) {
  int64_t v[3] = {1, 2, 3};
  void* list = make_list(v, 3);
  CHECK(list != NULL);
  if (list == NULL) return;
  TVMFFISeqCell* cell = seq(list);
  void (*deleter)(void*) = cell->data_deleter;
  TVMFFIAny* grown = (TVMFFIAny*)malloc(64 * sizeof(TVMFFIAny));
  memcpy(grown, cell->data, 3 * sizeof(TVMFFIAny));
  deleter(cell->data);
  deleter(NULL); /* capacity-0 lists hand NULL to it */
  cell->data = grown;
  cell->capacity = 64;
  TVMFFIAny r;
  CHECK(call1("ffi.ListAppend", list, any_int(4), &r) == 0);
  int64_t expect[4] = {1, 2, 3, 4};
  check_ints(list, expect, 4);
  TVMFFIObjectDecRef(list); /* frees `grown` through the same deleter */
}

static void test_get_set_size_contains(void) {
  int64_t v[3] = {10, 20, 30};
  void* list = make_list(v, 3);
  TVMFFIAny r;
  CHECK(call1("ffi.ListGetItem", list, any_int(1), &r) == 0);
  CHECK_EQ_INT(r.v_int64, 20);
  TVMFFIAny args[3] = {any_obj(list), any_int(1), any_str("a longer string value")};
  CHECK(call_global("ffi.ListSetItem", args, 3, &r) == 0);
  CHECK(call1("ffi.ListGetItem", list, any_int(1), &r) == 0);
  CHECK_EQ_INT(r.type_index, kTVMFFIStr);
  release(&r);
  TVMFFIAny one[1] = {any_obj(list)};
  CHECK(call_global("ffi.ListSize", one, 1, &r) == 0);
  CHECK_EQ_INT(r.v_int64, 3);
  CHECK(call1("ffi.ListContains", list, any_str("a longer string value"), &r) == 0);
  CHECK_EQ_INT(r.type_index, kTVMFFIBool);
  CHECK_EQ_INT(r.v_int64, 1);
  CHECK(call1("ffi.ListContains", list, any_int(30), &r) == 0);
  CHECK_EQ_INT(r.v_int64, 1);
  TVMFFIAny f = {0};
  f.type_index = kTVMFFIFloat;
  f.v_float64 = 30.0;
  CHECK(call1("ffi.ListContains", list, f, &r) == 0); /* 30 != 30.0 under AnyEqual */
  CHECK_EQ_INT(r.v_int64, 0);
  TVMFFIObjectDecRef(list);
}

static void test_insert_pop_erase(void) {
  int64_t v[5] = {0, 1, 2, 3, 4};
  void* list = make_list(v, 5);
  TVMFFIAny r;
  TVMFFIAny ins[3] = {any_obj(list), any_int(0), any_int(-1)};
  CHECK(call_global("ffi.ListInsert", ins, 3, &r) == 0);
  ins[1] = any_int(6);
  ins[2] = any_int(99);
  CHECK(call_global("ffi.ListInsert", ins, 3, &r) == 0); /* at size: append */
  int64_t e1[7] = {-1, 0, 1, 2, 3, 4, 99};
  check_ints(list, e1, 7);
  CHECK(call1("ffi.ListPop", list, any_int(2), &r) == 0);
  CHECK_EQ_INT(r.v_int64, 1);
  CHECK(call1("ffi.ListErase", list, any_int(0), &r) == 0);
  int64_t e2[5] = {0, 2, 3, 4, 99};
  check_ints(list, e2, 5);
  TVMFFIAny range[3] = {any_obj(list), any_int(1), any_int(3)};
  CHECK(call_global("ffi.ListEraseRange", range, 3, &r) == 0);
  int64_t e3[3] = {0, 4, 99};
  check_ints(list, e3, 3);
  TVMFFIObjectDecRef(list);
}

static void test_replace_slice_reverse_clear_reserve(void) {
  int64_t v[4] = {1, 2, 3, 4};
  int64_t w[3] = {7, 8, 9};
  void* list = make_list(v, 4);
  void* repl = make_list(w, 3);
  TVMFFIAny r;
  TVMFFIAny args[4] = {any_obj(list), any_int(1), any_int(3), any_obj(repl)};
  CHECK(call_global("ffi.ListReplaceSlice", args, 4, &r) == 0);
  int64_t e1[5] = {1, 7, 8, 9, 4};
  check_ints(list, e1, 5);
  /* Self-aliasing: replace [0, 1) of the list by the whole list. */
  args[1] = any_int(0);
  args[2] = any_int(1);
  args[3] = any_obj(list);
  CHECK(call_global("ffi.ListReplaceSlice", args, 4, &r) == 0);
  int64_t e2[9] = {1, 7, 8, 9, 4, 7, 8, 9, 4};
  check_ints(list, e2, 9);
  TVMFFIAny one[1] = {any_obj(list)};
  CHECK(call_global("ffi.ListReverse", one, 1, &r) == 0);
  int64_t e3[9] = {4, 9, 8, 7, 4, 9, 8, 7, 1};
  check_ints(list, e3, 9);
  CHECK(call1("ffi.ListReserve", list, any_int(100), &r) == 0);
  CHECK(seq(list)->capacity >= 100);
  check_ints(list, e3, 9);
  CHECK(call_global("ffi.ListClear", one, 1, &r) == 0);
  CHECK_EQ_INT(seq(list)->size, 0);
  TVMFFIObjectDecRef(list);
  TVMFFIObjectDecRef(repl);
}

static void test_errors(void) {
  int64_t v[2] = {1, 2};
  void* list = make_list(v, 2);
  TVMFFIAny r;
  CHECK(call1("ffi.ListGetItem", list, any_int(2), &r) == -1);
  CHECK_RAISED("IndexError", "out of bounds");
  CHECK(call1("ffi.ListGetItem", list, any_int(-1), &r) == -1);
  CHECK_RAISED("IndexError", "ffi.ListGetItem");
  CHECK(call1("ffi.ListPop", list, any_int(5), &r) == -1);
  CHECK_RAISED("IndexError", "ffi.ListPop");
  CHECK(call1("ffi.ListErase", list, any_int(2), &r) == -1);
  CHECK_RAISED("IndexError", "ffi.ListErase");
  TVMFFIAny ins[3] = {any_obj(list), any_int(3), any_int(0)};
  CHECK(call_global("ffi.ListInsert", ins, 3, &r) == -1);
  CHECK_RAISED("IndexError", "ffi.ListInsert");
  CHECK(call_global("ffi.ListSetItem", ins, 3, &r) == -1);
  CHECK_RAISED("IndexError", "ffi.ListSetItem");
  TVMFFIAny range[3] = {any_obj(list), any_int(2), any_int(1)};
  CHECK(call_global("ffi.ListEraseRange", range, 3, &r) == -1);
  CHECK_RAISED("IndexError", "invalid range");
  TVMFFIAny slice[4] = {any_obj(list), any_int(0), any_int(1), any_int(3)};
  CHECK(call_global("ffi.ListReplaceSlice", slice, 4, &r) == -1);
  CHECK_RAISED("TypeError", "ffi.ListReplaceSlice");
  CHECK(call1("ffi.ListReserve", list, any_int(-1), &r) == -1);
  CHECK_RAISED("ValueError", "ffi.ListReserve");
  CHECK(call1("ffi.ListGetItem", list, any_str("x"), &r) == -1);
  CHECK_RAISED("TypeError", "ffi.ListGetItem");
  TVMFFIAny not_list[2] = {any_int(1), any_int(0)};
  CHECK(call_global("ffi.ListSize", not_list, 1, &r) == -1);
  CHECK_RAISED("TypeError", "ffi.ListSize");
  CHECK(call_global("ffi.ListAppend", not_list, 1, &r) == -1);
  CHECK_RAISED("TypeError", "ffi.ListAppend");
  check_ints(list, v, 2);
  TVMFFIObjectDecRef(list);
}

static void test_element_refcounts(void) {
  int64_t live_before = live_objects();
  TVMFFIAny r;
  CHECK(call_global("ffi.List", NULL, 0, &r) == 0);
  void* elem = r.v_obj; /* another list used as an element */
  CHECK(call_global("ffi.List", NULL, 0, &r) == 0);
  void* list = r.v_obj;
  for (int i = 0; i < 10; ++i) CHECK(call1("ffi.ListAppend", list, any_obj(elem), &r) == 0);
  CHECK_EQ_INT(check_strong_count(elem), 11);
  CHECK(call1("ffi.ListPop", list, any_int(0), &r) == 0);
  CHECK(r.v_obj == elem);
  release(&r);
  CHECK(call1("ffi.ListErase", list, any_int(0), &r) == 0);
  TVMFFIAny args[3] = {any_obj(list), any_int(0), any_int(1)};
  CHECK(call_global("ffi.ListSetItem", args, 3, &r) == 0);
  CHECK_EQ_INT(check_strong_count(elem), 8);
  TVMFFIAny range[3] = {any_obj(list), any_int(1), any_int(3)};
  CHECK(call_global("ffi.ListEraseRange", range, 3, &r) == 0);
  CHECK_EQ_INT(check_strong_count(elem), 6);
  /* A list that holds itself: clearing breaks the cycle without freeing it early. */
  CHECK(call1("ffi.ListAppend", list, any_obj(list), &r) == 0);
  TVMFFIAny one[1] = {any_obj(list)};
  CHECK(call_global("ffi.ListClear", one, 1, &r) == 0);
  CHECK_EQ_INT(check_strong_count(list), 1);
  CHECK_EQ_INT(check_strong_count(elem), 1);
  TVMFFIObjectDecRef(list);
  TVMFFIObjectDecRef(elem);
  CHECK_EQ_INT(live_objects(), live_before);
}

int main(void) {
  RUN(test_layout_and_growth);
  RUN(test_kernel_style_growth);
  RUN(test_get_set_size_contains);
  RUN(test_insert_pop_erase);
  RUN(test_replace_slice_reverse_clear_reserve);
  RUN(test_errors);
  RUN(test_element_refcounts);
  return CHECK_MAIN_RESULT();
}
