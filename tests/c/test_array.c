/* ffi.Array: layout read inline by kernels, construction from views, item access, size,
 * contains (AnyEqual) and element release. */
#include <stdint.h>

#include "check.h"

/* A function whose destruction is counted, to watch elements being released. */
static int g_released = 0;
static int noop(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self, (void)args, (void)n, (void)result;
  return 0;
}
static void count_release(void* self) {
  (void)self;
  g_released++;
}
static void* counted_object(void) {
  void* f = NULL;
  CHECK_EQ_INT(TVMFFIFunctionCreate(NULL, noop, count_release, &f), 0);
  return f;
}

static void* make_array(TVMFFIAny* items, int32_t n) {
  TVMFFIAny arr;
  CHECK_EQ_INT(call_global("ffi.Array", items, n, &arr), 0);
  CHECK_EQ_INT(arr.type_index, kTVMFFIArray);
  return arr.v_obj;
}

static int contains(void* arr, TVMFFIAny value) {
  TVMFFIAny args[2] = {any_obj(arr), value}, result;
  CHECK_EQ_INT(call_global("ffi.ArrayContains", args, 2, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFIBool);
  return (int)result.v_int64;
}

static void test_layout_is_what_kernels_read(void) {
  g_released = 0;
  void* obj = counted_object();
  TVMFFIAny items[5] = {any_int(7), any_float(2.5), any_str("abc"),
                        any_str("a string longer than seven bytes"), any_obj(obj)};
  void* arr = make_array(items, 5);
  CHECK_EQ_INT(check_strong_count(obj), 2); /* the array owns one reference */
  TVMFFISeqCell* cell = seq(arr);
  CHECK(cell->data == (char*)arr + 56); /* elements inline after the cell */
  CHECK_EQ_INT(cell->size, 5);
  CHECK_EQ_INT(cell->capacity, 5);
  CHECK(cell->data_deleter == NULL);
  TVMFFIAny* data = (TVMFFIAny*)cell->data;
  CHECK_EQ_INT(data[0].type_index, kTVMFFIInt);
  CHECK_EQ_INT(data[0].v_int64, 7);
  CHECK_EQ_INT(data[1].type_index, kTVMFFIFloat);
  /* Raw strings never stay raw in an owned element. */
  CHECK_EQ_INT(data[2].type_index, kTVMFFISmallStr);
  CHECK_EQ_INT(data[2].small_str_len, 3);
  CHECK_EQ_INT(data[3].type_index, kTVMFFIStr);
  CHECK_BYTES_EQ(*TVMFFIBytesGetByteArrayPtr(data[3].v_obj), "a string longer than seven bytes");
  CHECK(data[4].v_obj == obj);

  TVMFFIObjectDecRef(arr);
  CHECK_EQ_INT(g_released, 0);
  CHECK_EQ_INT(check_strong_count(obj), 1); /* released exactly once */
  TVMFFIObjectDecRef(obj);
  CHECK_EQ_INT(g_released, 1);
}

static void test_empty_array(void) {
  void* arr = make_array(NULL, 0);
  CHECK_EQ_INT(seq(arr)->size, 0);
  CHECK(seq(arr)->data == (char*)arr + 56);
  TVMFFIAny args[2] = {any_obj(arr), any_int(0)}, result;
  CHECK_EQ_INT(call_global("ffi.ArraySize", args, 1, &result), 0);
  CHECK_EQ_INT(result.v_int64, 0);
  CHECK_EQ_INT(call_global("ffi.ArrayGetItem", args, 2, &result), -1);
  CHECK_RAISED("IndexError", "Index 0 out of bounds 0");
  TVMFFIObjectDecRef(arr);
}

static void test_get_item_and_size(void) {
  g_released = 0;
  void* obj = counted_object();
  TVMFFIAny items[3] = {any_int(1), any_str("hello, world"), any_obj(obj)};
  void* arr = make_array(items, 3);
  TVMFFIAny args[2] = {any_obj(arr), any_int(0)}, result;
  CHECK_EQ_INT(call_global("ffi.ArraySize", args, 1, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFIInt);
  CHECK_EQ_INT(result.v_int64, 3);

  CHECK_EQ_INT(call_global("ffi.ArrayGetItem", args, 2, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFIInt);
  CHECK_EQ_INT(result.v_int64, 1);
  args[1] = any_int(1);
  CHECK_EQ_INT(call_global("ffi.ArrayGetItem", args, 2, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFIStr);
  void* str = result.v_obj;
  CHECK_EQ_INT(check_strong_count(str), 2); /* the result is an owned reference */
  release(&result);
  CHECK_EQ_INT(check_strong_count(str), 1);
  args[1] = any_int(2);
  CHECK_EQ_INT(call_global("ffi.ArrayGetItem", args, 2, &result), 0);
  CHECK(result.v_obj == obj);
  CHECK_EQ_INT(check_strong_count(obj), 3);
  release(&result);

  args[1] = any_int(3);
  CHECK_EQ_INT(call_global("ffi.ArrayGetItem", args, 2, &result), -1);
  CHECK_RAISED("IndexError", "Index 3 out of bounds 3");
  args[1] = any_int(-1); /* negative indices are resolved by the Python layer, not here */
  CHECK_EQ_INT(call_global("ffi.ArrayGetItem", args, 2, &result), -1);
  CHECK_RAISED("IndexError", "Index -1 out of bounds 3");

  /* Argument checks. */
  args[1] = any_str("0");
  CHECK_EQ_INT(call_global("ffi.ArrayGetItem", args, 2, &result), -1);
  CHECK_RAISED("TypeError", "ffi.ArrayGetItem");
  TVMFFIAny not_array = any_obj(obj);
  CHECK_EQ_INT(call_global("ffi.ArraySize", &not_array, 1, &result), -1);
  CHECK_RAISED("TypeError", "ffi.ArraySize");
  CHECK_EQ_INT(call_global("ffi.ArraySize", args, 2, &result), -1);
  CHECK_RAISED("TypeError", "Mismatched number of arguments");

  TVMFFIObjectDecRef(arr);
  CHECK_EQ_INT(check_strong_count(obj), 1);
  TVMFFIObjectDecRef(obj);
  CHECK_EQ_INT(g_released, 1);
}

static void test_contains_uses_any_equal(void) {
  void* obj = counted_object();
  void* other = counted_object();
  TVMFFIAny items[5] = {any_int(1), any_float(2.0), any_str("abc"),
                        any_str("a longer string value"), any_obj(obj)};
  void* arr = make_array(items, 5);
  CHECK(contains(arr, any_int(1)));
  CHECK(!contains(arr, any_bool(1))); /* 1 != True: different type index */
  CHECK(!contains(arr, any_int(2)));  /* 2 != 2.0 */
  CHECK(contains(arr, any_float(2.0)));
  CHECK(contains(arr, any_obj(obj)));   /* objects compare by identity */
  CHECK(!contains(arr, any_obj(other)));

  /* Strings compare by content whatever their form: raw, small, or heap object. */
  CHECK(contains(arr, any_str("abc")));
  CHECK(!contains(arr, any_str("abd")));
  TVMFFIAny small_abc = {0}, heap_long = {0};
  TVMFFIByteArray abc = check_ba("abc");
  CHECK_EQ_INT(TVMFFIStringFromByteArray(&abc, &small_abc), 0); /* small form */
  CHECK(contains(arr, small_abc));
  CHECK(contains(arr, any_str("a longer string value")));
  TVMFFIByteArray longer = check_ba("a longer string value");
  CHECK_EQ_INT(TVMFFIStringFromByteArray(&longer, &heap_long), 0);
  CHECK_EQ_INT(heap_long.type_index, kTVMFFIStr);
  CHECK(contains(arr, heap_long)); /* a different heap object with equal content */
  release(&heap_long);
  /* Bytes are not strings. */
  TVMFFIAny bytes_abc = {0};
  CHECK_EQ_INT(TVMFFIBytesFromByteArray(&abc, &bytes_abc), 0);
  CHECK(!contains(arr, bytes_abc));

  TVMFFIObjectDecRef(arr);
  TVMFFIObjectDecRef(obj);
  TVMFFIObjectDecRef(other);
}

static void test_rvalue_elements_are_moved_in(void) {
  g_released = 0;
  void* obj = counted_object();
  void* slot = obj;
  TVMFFIAny item = {0};
  item.type_index = kTVMFFIObjectRValueRef;
  item.v_ptr = &slot;
  void* arr = make_array(&item, 1);
  CHECK(slot == NULL);                      /* moved out of the caller's slot */
  CHECK_EQ_INT(check_strong_count(obj), 1); /* the caller's reference became the array's */
  TVMFFIObjectDecRef(arr);
  CHECK_EQ_INT(g_released, 1);

  /* A failed conversion releases what was already stored. */
  void* kept = counted_object();
  TVMFFIAny bad[2] = {any_obj(kept), {0}};
  bad[1].type_index = kTVMFFIObjectRValueRef;
  bad[1].v_ptr = &slot; /* already moved: NULL */
  TVMFFIAny result;
  CHECK_EQ_INT(call_global("ffi.Array", bad, 2, &result), -1);
  CHECK_RAISED("RuntimeError", "RValueRef already moved");
  CHECK_EQ_INT(check_strong_count(kept), 1);
  TVMFFIObjectDecRef(kept);
  CHECK_EQ_INT(g_released, 2);
}

static void test_nested_arrays(void) {
  g_released = 0;
  void* obj = counted_object();
  TVMFFIAny inner_items[1] = {any_obj(obj)};
  void* inner = make_array(inner_items, 1);
  TVMFFIAny outer_items[2] = {any_obj(inner), any_obj(inner)};
  void* outer = make_array(outer_items, 2);
  CHECK_EQ_INT(check_strong_count(inner), 3);
  TVMFFIObjectDecRef(inner);
  TVMFFIObjectDecRef(obj);
  CHECK_EQ_INT(g_released, 0);
  TVMFFIObjectDecRef(outer); /* releases inner, which releases obj */
  CHECK_EQ_INT(g_released, 1);
}

/* Each array's deleter releases the next: 300,000 levels would need that many nested deleter
 * frames (far more stack than a thread has under ASan) if releases recursed all the way down.
 * A weak reference on one level in the middle takes the split deleter path while deferred. */
static void test_deep_chains_release_iteratively(void) {
  enum { kDepth = 300000, kWeakLevel = 150000 };
  g_released = 0;
  void* leaf = counted_object();
  TVMFFIAny item = any_obj(leaf);
  void* chain = make_array(&item, 1);
  TVMFFIObjectDecRef(leaf); /* the innermost array holds the only reference */
  TVMFFIObject* weak_held = NULL;
  for (int depth = 0; depth < kDepth; ++depth) {
    item = any_obj(chain);
    void* outer = make_array(&item, 1);
    TVMFFIObjectDecRef(chain);
    chain = outer;
    if (depth == kWeakLevel) {
      weak_held = (TVMFFIObject*)chain;
      weak_held->combined_ref_count += 1ULL << 32; /* taken inline, as C++ does */
    }
  }
  TVMFFIObjectDecRef(chain);
  CHECK_EQ_INT(g_released, 1); /* the whole chain went, down to the leaf */
  /* The weakly held level lost its contents but kept its memory; dropping the last weak
   * reference frees it. */
  CHECK(weak_held->combined_ref_count == (1ULL << 32));
  weak_held->combined_ref_count = 0;
  weak_held->deleter(weak_held, kTVMFFIObjectDeleterFlagBitMaskWeak);
}

int main(void) {
  RUN(test_layout_is_what_kernels_read);
  RUN(test_empty_array);
  RUN(test_get_item_and_size);
  RUN(test_contains_uses_any_equal);
  RUN(test_rvalue_elements_are_moved_in);
  RUN(test_nested_arrays);
  RUN(test_deep_chains_release_iteratively);
  return CHECK_MAIN_RESULT();
}
