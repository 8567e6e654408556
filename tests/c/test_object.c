/* Object header protocol: refcounts, the strong/weak deleter flags, opaque objects, the custom
 * allocator hook, version, and init-once handles. */
#include <pthread.h>

#include "check.h"

/* ---- an object made by the test itself, as a kernel would, counting deleter calls ---- */

typedef struct {
  TVMFFIObject header;
  int strong_calls;
  int weak_calls;
  int both_calls;
} CountedObject;

static void counted_deleter(void* self, int flags) {
  CountedObject* obj = (CountedObject*)self;
  if (flags == kTVMFFIObjectDeleterFlagBitMaskBoth) obj->both_calls++;
  else if (flags == kTVMFFIObjectDeleterFlagBitMaskStrong) obj->strong_calls++;
  else if (flags == kTVMFFIObjectDeleterFlagBitMaskWeak) obj->weak_calls++;
}

static void counted_init(CountedObject* obj) {
  memset(obj, 0, sizeof(*obj));
  obj->header.combined_ref_count = (1ULL << 32) | 1ULL;
  obj->header.type_index = kTVMFFIObject;
  obj->header.deleter = counted_deleter;
}

static void test_last_strong_ref_calls_deleter_with_both_flags(void) {
  CountedObject obj;
  counted_init(&obj);
  CHECK_EQ_INT(TVMFFIObjectIncRef(&obj), 0);
  CHECK_EQ_INT(check_strong_count(&obj), 2);
  CHECK_EQ_INT(TVMFFIObjectDecRef(&obj), 0);
  CHECK_EQ_INT(obj.both_calls, 0);
  CHECK_EQ_INT(TVMFFIObjectDecRef(&obj), 0);
  CHECK_EQ_INT(obj.both_calls, 1);
  CHECK_EQ_INT(obj.strong_calls + obj.weak_calls, 0);
}

static void test_weak_ref_outliving_strong_refs_splits_the_deleter(void) {
  CountedObject obj;
  counted_init(&obj);
  obj.header.combined_ref_count += 1ULL << 32; /* a weak reference, taken inline as C++ does */
  CHECK_EQ_INT(TVMFFIObjectDecRef(&obj), 0);
  CHECK_EQ_INT(obj.strong_calls, 1); /* contents destroyed ... */
  CHECK_EQ_INT(obj.weak_calls, 0);   /* ... memory kept for the weak reference */
  CHECK(obj.header.combined_ref_count == (1ULL << 32));
  /* Dropping the last weak reference inline: the holder sees 1<<32 and frees. */
  obj.header.combined_ref_count -= 1ULL << 32;
  CHECK(obj.header.combined_ref_count == 0);
}

static void test_null_handles_are_ignored(void) {
  CHECK_EQ_INT(TVMFFIObjectIncRef(NULL), 0);
  CHECK_EQ_INT(TVMFFIObjectDecRef(NULL), 0);
}

typedef struct {
  CountedObject* obj;
  int rounds;
} RefThreadArg;

static void* ref_thread(void* p) {
  RefThreadArg* arg = (RefThreadArg*)p;
  for (int i = 0; i < arg->rounds; ++i) {
    TVMFFIObjectIncRef(arg->obj);
    TVMFFIObjectDecRef(arg->obj);
  }
  return NULL;
}

static void test_refcounts_are_atomic_across_threads(void) {
  CountedObject obj;
  counted_init(&obj);
  pthread_t threads[8];
  RefThreadArg arg = {&obj, 100000};
  for (int i = 0; i < 8; ++i) pthread_create(&threads[i], NULL, ref_thread, &arg);
  for (int i = 0; i < 8; ++i) pthread_join(threads[i], NULL);
  CHECK_EQ_INT(check_strong_count(&obj), 1);
  CHECK_EQ_INT(obj.both_calls, 0);
  TVMFFIObjectDecRef(&obj);
  CHECK_EQ_INT(obj.both_calls, 1);
}

/* ---- opaque objects ---- */

static int opaque_released;
static void release_opaque(void* handle) {
  CHECK(handle == (void*)0x1234);
  opaque_released++;
}

static void test_opaque_object_wraps_a_foreign_handle(void) {
  void* obj = NULL;
  opaque_released = 0;
  CHECK_EQ_INT(TVMFFIObjectCreateOpaque((void*)0x1234, kTVMFFIOpaquePyObject, release_opaque, &obj), 0);
  CHECK(obj != NULL);
  CHECK_EQ_INT(TVMFFIObjectGetTypeIndex(obj), kTVMFFIOpaquePyObject);
  CHECK(TVMFFIOpaqueObjectGetCellPtr(obj)->handle == (void*)0x1234);
  TVMFFIObjectIncRef(obj);
  TVMFFIObjectDecRef(obj);
  CHECK_EQ_INT(opaque_released, 0);
  TVMFFIObjectDecRef(obj);
  CHECK_EQ_INT(opaque_released, 1);
}

static void test_opaque_object_rejects_other_type_indices(void) {
  void* obj = (void*)0x1;
  CHECK_EQ_INT(TVMFFIObjectCreateOpaque(NULL, kTVMFFIObject, NULL, &obj), -1);
  CHECK_RAISED("RuntimeError", "Only kTVMFFIOpaquePyObject is supported");
  CHECK(obj == (void*)0x1); /* untouched on failure */
}

static void test_opaque_object_with_null_release(void) {
  void* obj = NULL;
  CHECK_EQ_INT(TVMFFIObjectCreateOpaque(NULL, kTVMFFIOpaquePyObject, NULL, &obj), 0);
  TVMFFIObjectDecRef(obj);
}

/* ---- custom allocator ---- */

static void test_default_allocator_places_header_before_body(void) {
  TVMFFICustomAllocator* alloc = TVMFFIGetCustomAllocator();
  CHECK(alloc != NULL && alloc->allocate != NULL);
  for (size_t align = 1; align <= 256; align *= 2) {
    char* body = (char*)alloc->allocate(48, align, kTVMFFIObject, alloc->context);
    CHECK(body != NULL);
    CHECK(((uintptr_t)body % (align > 16 ? align : 16)) == 0);
    memset(body, 0xAB, 48); /* the whole body is writable */
    TVMFFIObjectAllocHeader* header = (TVMFFIObjectAllocHeader*)(body - sizeof(TVMFFIObjectAllocHeader));
    CHECK(header->delete_space != NULL);
    header->delete_space(body);
  }
}

static int custom_allocations;
static void* custom_allocate(size_t size, size_t alignment, int32_t type_index, void* context) {
  (void)size;
  (void)alignment;
  (void)type_index;
  custom_allocations++;
  CHECK(context == (void*)0x77);
  return NULL;
}

static void test_custom_allocator_can_be_set_and_restored(void) {
  TVMFFICustomAllocator* original = TVMFFIGetCustomAllocator();
  static TVMFFICustomAllocator mine = {custom_allocate, (void*)0x77};
  CHECK_EQ_INT(TVMFFISetCustomAllocator(&mine), 0);
  CHECK(TVMFFIGetCustomAllocator() == &mine);
  CHECK(TVMFFIGetCustomAllocator()->allocate(8, 8, 0, (void*)0x77) == NULL);
  CHECK_EQ_INT(custom_allocations, 1);
  CHECK_EQ_INT(TVMFFISetCustomAllocator(NULL), 0);
  CHECK(TVMFFIGetCustomAllocator() == original);
  static TVMFFICustomAllocator broken = {NULL, NULL};
  CHECK_EQ_INT(TVMFFISetCustomAllocator(&broken), -1);
  CHECK_RAISED("ValueError", "allocate");
  CHECK(TVMFFIGetCustomAllocator() == original);
}

/* ---- version and init-once ---- */

static void test_version_is_0_1_16(void) {
  TVMFFIVersion v = {9, 9, 9};
  TVMFFIGetVersion(&v);
  CHECK_EQ_INT(v.major, 0);
  CHECK_EQ_INT(v.minor, 1);
  CHECK_EQ_INT(v.patch, 16);
  CHECK_EQ_INT(TVM_FFI_VERSION_PATCH, 16);
}

static int init_calls;
static int init_value = 42;
static int init_ok(void** result) {
  init_calls++;
  *result = &init_value;
  return 0;
}
static int init_null(void** result) {
  *result = NULL;
  return 0;
}
static int init_fails(void** result) {
  (void)result;
  TVMFFIErrorSetRaisedFromCStr("ValueError", "init failed on purpose");
  return -1;
}
static int deinit_calls;
static int deinit(void* handle) {
  CHECK(handle == &init_value);
  deinit_calls++;
  return 0;
}

static void* init_thread(void* p) {
  CHECK_EQ_INT(TVMFFIHandleInitOnce((void**)p, init_ok), 0);
  return NULL;
}

static void test_init_once_runs_init_exactly_once_across_threads(void) {
  static void* handle = NULL;
  init_calls = 0;
  pthread_t threads[8];
  for (int i = 0; i < 8; ++i) pthread_create(&threads[i], NULL, init_thread, &handle);
  for (int i = 0; i < 8; ++i) pthread_join(threads[i], NULL);
  CHECK(handle == &init_value);
  CHECK_EQ_INT(init_calls, 1);
  deinit_calls = 0;
  CHECK_EQ_INT(TVMFFIHandleDeinitOnce(&handle, deinit), 0);
  CHECK(handle == NULL);
  CHECK_EQ_INT(TVMFFIHandleDeinitOnce(&handle, deinit), 0);
  CHECK_EQ_INT(deinit_calls, 1);
}

static void test_init_once_reports_failures(void) {
  void* handle = NULL;
  CHECK_EQ_INT(TVMFFIHandleInitOnce(&handle, init_null), -1);
  CHECK_RAISED("RuntimeError", "init_func must return a non-NULL handle");
  CHECK_EQ_INT(TVMFFIHandleInitOnce(&handle, init_fails), -1);
  CHECK_RAISED("ValueError", "init failed on purpose");
  CHECK(handle == NULL);
}

/* ---- sentinels ---- */

static void test_sentinel_objects_are_singletons(void) {
  const char* names[2] = {"ffi.GetInvalidObject", "ffi.GetKwargsObject"};
  void* seen[2];
  for (int k = 0; k < 2; ++k) {
    void* f = NULL;
    TVMFFIByteArray name = check_ba(names[k]);
    CHECK_EQ_INT(TVMFFIFunctionGetGlobal(&name, &f), 0);
    CHECK(f != NULL);
    TVMFFIAny r1 = {0}, r2 = {0};
    CHECK_EQ_INT(TVMFFIFunctionCall(f, NULL, 0, &r1), 0);
    CHECK_EQ_INT(TVMFFIFunctionCall(f, NULL, 0, &r2), 0);
    CHECK(r1.type_index >= kTVMFFIStaticObjectBegin);
    CHECK(r1.v_obj == r2.v_obj);
    seen[k] = r1.v_obj;
    TVMFFIObjectDecRef(r1.v_obj);
    TVMFFIObjectDecRef(r2.v_obj);
    TVMFFIObjectDecRef(f);
  }
  CHECK(seen[0] != seen[1]);
}

static void test_live_object_count_tracks_runtime_objects(void) {
  int64_t start = live_objects();
  TVMFFIByteArray text = check_ba("a heap string that is counted");
  TVMFFIAny str;
  CHECK_EQ_INT(TVMFFIStringFromByteArray(&text, &str), 0);
  TVMFFIErrorSetRaisedFromCStr("ValueError", "an error object is counted too");
  CHECK_EQ_INT(live_objects(), start + 2);
  TVMFFIObjectDecRef(str.v_obj);
  CHECK_RAISED("ValueError", "counted too");
  CHECK_EQ_INT(live_objects(), start);
}

int main(void) {
  RUN(test_live_object_count_tracks_runtime_objects);
  RUN(test_last_strong_ref_calls_deleter_with_both_flags);
  RUN(test_weak_ref_outliving_strong_refs_splits_the_deleter);
  RUN(test_null_handles_are_ignored);
  RUN(test_refcounts_are_atomic_across_threads);
  RUN(test_opaque_object_wraps_a_foreign_handle);
  RUN(test_opaque_object_rejects_other_type_indices);
  RUN(test_opaque_object_with_null_release);
  RUN(test_default_allocator_places_header_before_body);
  RUN(test_custom_allocator_can_be_set_and_restored);
  RUN(test_version_is_0_1_16);
  RUN(test_init_once_runs_init_exactly_once_across_threads);
  RUN(test_init_once_reports_failures);
  RUN(test_sentinel_objects_are_singletons);
  return CHECK_MAIN_RESULT();
}
