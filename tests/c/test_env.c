/* The environment API: per-thread streams, the tensor allocator, env tensor allocation and the
 * frontend signal check. */
#include <pthread.h>
#include <stdint.h>

#include "check.h"

/* ---- streams ---- */

static void test_streams_set_get_and_restore(void) {
  void* original = (void*)0x1;
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == NULL); /* never set */
  CHECK_EQ_INT(TVMFFIEnvSetStream(kDLCUDA, 0, (void*)0xA0, &original), 0);
  CHECK(original == NULL);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == (void*)0xA0);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 1) == NULL); /* per device id */
  CHECK(TVMFFIEnvGetStream(kDLROCM, 0) == NULL); /* per device type */

  /* Nesting, as a `with stream:` block does: set, then restore what was there. */
  void* outer = NULL;
  CHECK_EQ_INT(TVMFFIEnvSetStream(kDLCUDA, 0, (void*)0xB0, &outer), 0);
  CHECK(outer == (void*)0xA0);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == (void*)0xB0);
  CHECK_EQ_INT(TVMFFIEnvSetStream(kDLCUDA, 0, outer, NULL), 0);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == (void*)0xA0);
  CHECK_EQ_INT(TVMFFIEnvSetStream(kDLCUDA, 0, NULL, NULL), 0);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == NULL);
}

static void test_streams_large_device_ids(void) {
  /* Beyond the fixed table: the growable list answers the same way. */
  void* original = (void*)0x1;
  for (int32_t id = 0; id < 100; ++id) {
    CHECK_EQ_INT(TVMFFIEnvSetStream(kDLCUDA, 1000 + id, (void*)(uintptr_t)(0x100 + id), &original), 0);
    CHECK(original == NULL);
  }
  CHECK_EQ_INT(TVMFFIEnvSetStream(200, 3, (void*)0x77, NULL), 0);
  for (int32_t id = 0; id < 100; ++id) {
    CHECK(TVMFFIEnvGetStream(kDLCUDA, 1000 + id) == (void*)(uintptr_t)(0x100 + id));
  }
  CHECK(TVMFFIEnvGetStream(200, 3) == (void*)0x77);
  CHECK(TVMFFIEnvGetStream(200, 4) == NULL);
  CHECK_EQ_INT(TVMFFIEnvSetStream(kDLCUDA, 1050, (void*)0x99, &original), 0);
  CHECK(original == (void*)(uintptr_t)(0x100 + 50));
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 1050) == (void*)0x99);
  /* Setting NULL where nothing was set reports NULL and stores nothing. */
  original = (void*)0x1;
  CHECK_EQ_INT(TVMFFIEnvSetStream(kDLCUDA, 5000, NULL, &original), 0);
  CHECK(original == NULL);
}

static void test_streams_reject_negative_devices(void) {
  CHECK_EQ_INT(TVMFFIEnvSetStream(-1, 0, (void*)0x1, NULL), -1);
  CHECK_RAISED("ValueError", "must be >= 0, got (-1, 0)");
  CHECK_EQ_INT(TVMFFIEnvSetStream(kDLCUDA, -3, (void*)0x1, NULL), -1);
  CHECK_RAISED("ValueError", "TVMFFIEnvSetStream");
  CHECK(TVMFFIEnvGetStream(-1, 0) == NULL);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, -3) == NULL);
}

typedef struct {
  void* seen_small;
  void* seen_large;
  void* seen_allocator;
} ThreadView;

static int never_called_allocator(DLTensor* prototype, DLManagedTensorVersioned** out,
                                  void* error_ctx, void (*set_error)(void*, const char*, const char*)) {
  (void)prototype;
  (void)out;
  set_error(error_ctx, "RuntimeError", "never called");
  return -1;
}

static void* other_thread(void* arg) {
  ThreadView* view = (ThreadView*)arg;
  view->seen_small = TVMFFIEnvGetStream(kDLCUDA, 0);
  view->seen_large = TVMFFIEnvGetStream(kDLCUDA, 4000);
  view->seen_allocator = (void*)TVMFFIEnvGetDLPackManagedTensorAllocator();
  /* This thread's settings stay here; its list of large ids is freed at exit (LSan). */
  TVMFFIEnvSetStream(kDLCUDA, 0, (void*)0xDEAD, NULL);
  TVMFFIEnvSetStream(kDLCUDA, 4001, (void*)0xBEEF, NULL);
  TVMFFIEnvSetDLPackManagedTensorAllocator(never_called_allocator, 0, NULL);
  return NULL;
}

static void test_streams_are_per_thread(void) {
  TVMFFIEnvSetStream(kDLCUDA, 0, (void*)0xC0, NULL);
  TVMFFIEnvSetStream(kDLCUDA, 4000, (void*)0xC1, NULL);
  ThreadView view = {(void*)1, (void*)1, (void*)1};
  pthread_t thread;
  CHECK_EQ_INT(pthread_create(&thread, NULL, other_thread, &view), 0);
  pthread_join(thread, NULL);
  CHECK(view.seen_small == NULL);
  CHECK(view.seen_large == NULL);
  CHECK(view.seen_allocator == NULL);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 0) == (void*)0xC0);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 4000) == (void*)0xC1);
  CHECK(TVMFFIEnvGetStream(kDLCUDA, 4001) == NULL);
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == NULL);
  TVMFFIEnvSetStream(kDLCUDA, 0, NULL, NULL);
  TVMFFIEnvSetStream(kDLCUDA, 4000, NULL, NULL);
}

/* ---- allocators ---- */

typedef struct {
  DLManagedTensorVersioned mt;
  int64_t shape[8];
} FakeTensor;

static int g_alloc_calls = 0;
static int g_free_calls = 0;
static float g_fake_storage[256];

static void fake_deleter(DLManagedTensorVersioned* self) {
  g_free_calls++;
  free(self);
}

/* A framework-like allocator handing out slices of static storage, with no strides. */
static int fake_allocator(DLTensor* prototype, DLManagedTensorVersioned** out, void* error_ctx,
                          void (*set_error)(void*, const char*, const char*)) {
  g_alloc_calls++;
  if (prototype->ndim > 8) {
    set_error(error_ctx, "ValueError", "fake allocator: too many dims");
    return -1;
  }
  FakeTensor* t = (FakeTensor*)calloc(1, sizeof(FakeTensor));
  t->mt.version.major = 1;
  t->mt.deleter = fake_deleter;
  t->mt.dl_tensor.data = g_fake_storage;
  t->mt.dl_tensor.device = prototype->device;
  t->mt.dl_tensor.ndim = prototype->ndim;
  t->mt.dl_tensor.dtype = prototype->dtype;
  memcpy(t->shape, prototype->shape, (size_t)prototype->ndim * sizeof(int64_t));
  t->mt.dl_tensor.shape = t->shape;
  *out = &t->mt;
  return 0;
}

static int second_allocator(DLTensor* prototype, DLManagedTensorVersioned** out, void* error_ctx,
                            void (*set_error)(void*, const char*, const char*)) {
  return fake_allocator(prototype, out, error_ctx, set_error);
}

static void test_allocator_thread_local_and_global(void) {
  DLPackManagedTensorAllocator previous = fake_allocator;
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == NULL);
  /* Thread-local only. */
  CHECK_EQ_INT(TVMFFIEnvSetDLPackManagedTensorAllocator(fake_allocator, 0, &previous), 0);
  CHECK(previous == NULL);
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == fake_allocator);
  /* Global too: the thread-local value still wins here. */
  CHECK_EQ_INT(TVMFFIEnvSetDLPackManagedTensorAllocator(second_allocator, 1, &previous), 0);
  CHECK(previous == fake_allocator);
  CHECK_EQ_INT(TVMFFIEnvSetDLPackManagedTensorAllocator(fake_allocator, 0, &previous), 0);
  CHECK(previous == second_allocator);
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == fake_allocator);
  /* Clearing the thread-local value falls back to the global one, which other threads see. */
  CHECK_EQ_INT(TVMFFIEnvSetDLPackManagedTensorAllocator(NULL, 0, &previous), 0);
  CHECK(previous == fake_allocator);
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == second_allocator);
  ThreadView view = {NULL, NULL, NULL};
  pthread_t thread;
  pthread_create(&thread, NULL, other_thread, &view);
  pthread_join(thread, NULL);
  CHECK(view.seen_allocator == (void*)second_allocator);
  /* opt_out reports the previous thread-local value only (NULL here, not the global). */
  previous = fake_allocator;
  CHECK_EQ_INT(TVMFFIEnvSetDLPackManagedTensorAllocator(NULL, 1, &previous), 0);
  CHECK(previous == NULL);
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == NULL);
}

static DLTensor prototype(int32_t device_type, int32_t ndim, int64_t* shape, uint8_t code,
                          uint8_t bits, uint16_t lanes) {
  DLTensor t;
  memset(&t, 0, sizeof(t));
  t.device.device_type = (DLDeviceType)device_type;
  t.ndim = ndim;
  t.shape = shape;
  t.dtype.code = code;
  t.dtype.bits = bits;
  t.dtype.lanes = lanes;
  return t;
}

static void test_env_tensor_alloc_with_custom_allocator(void) {
  TVMFFIEnvSetDLPackManagedTensorAllocator(fake_allocator, 0, NULL);
  g_alloc_calls = g_free_calls = 0;
  int64_t shape[3] = {2, 3, 4};
  DLTensor proto = prototype(kDLCUDA, 3, shape, kDLFloat, 16, 1);
  proto.data = (void*)0x1234; /* ignored: only dtype, ndim, shape and device are used */
  void* tensor = NULL;
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&proto, &tensor), 0);
  CHECK_EQ_INT(g_alloc_calls, 1);
  CHECK_EQ_INT(TVMFFIObjectGetTypeIndex(tensor), kTVMFFITensor);
  DLTensor* t = TVMFFITensorGetDLTensorPtr(tensor);
  CHECK(t->data == g_fake_storage);
  CHECK_EQ_INT(t->device.device_type, kDLCUDA);
  CHECK_EQ_INT(t->dtype.bits, 16);
  CHECK_EQ_INT(t->ndim, 3);
  CHECK(t->strides != NULL); /* the allocator gave none: compact strides appended */
  if (t->strides != NULL) {
    CHECK_EQ_INT(t->strides[0], 12);
    CHECK_EQ_INT(t->strides[1], 4);
    CHECK_EQ_INT(t->strides[2], 1);
  }
  CHECK_EQ_INT(g_free_calls, 0);
  TVMFFIObjectDecRef(tensor);
  CHECK_EQ_INT(g_free_calls, 1);

  /* The allocator's error travels through unchanged. */
  int64_t big_shape[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  DLTensor too_many = prototype(kDLCUDA, 9, big_shape, kDLFloat, 32, 1);
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&too_many, &tensor), -1);
  CHECK_RAISED("ValueError", "fake allocator: too many dims");
  TVMFFIEnvSetDLPackManagedTensorAllocator(NULL, 0, NULL);
}

static int g_return_code = 0;
static int g_set_error_in_failure = 1;

static int failing_allocator(DLTensor* prototype, DLManagedTensorVersioned** out,
                             void* error_ctx, void (*set_error)(void*, const char*, const char*)) {
  (void)prototype;
  *out = NULL;
  if (g_return_code != 0 && g_set_error_in_failure) {
    set_error(error_ctx, "MemoryError", "device out of memory");
  }
  return g_return_code;
}

static int bad_subbyte_allocator(DLTensor* prototype, DLManagedTensorVersioned** out,
                                 void* error_ctx, void (*set_error)(void*, const char*, const char*)) {
  int rc = fake_allocator(prototype, out, error_ctx, set_error);
  if (rc == 0) (*out)->flags = DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED;
  return rc;
}

static void test_env_tensor_alloc_failures(void) {
  int64_t shape[1] = {4};
  DLTensor proto = prototype(kDLCUDA, 1, shape, kDLFloat, 32, 1);
  void* tensor = NULL;
  /* No allocator and not a CPU tensor. */
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&proto, &tensor), -1);
  CHECK_RAISED("RuntimeError", "TVMFFIEnvSetDLPackManagedTensorAllocator has not been called");
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&proto, &tensor), -1);
  CHECK_RAISED("RuntimeError", "device type 2");

  TVMFFIEnvSetDLPackManagedTensorAllocator(failing_allocator, 0, NULL);
  g_return_code = -1;
  g_set_error_in_failure = 1;
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&proto, &tensor), -1);
  CHECK_RAISED("MemoryError", "device out of memory");
  /* A failure without an error gets one that says so. */
  g_set_error_in_failure = 0;
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&proto, &tensor), -1);
  CHECK_RAISED("RuntimeError", "failed without an error");
  /* Other codes pass through as they are (-2: a frontend error is already set). */
  g_return_code = -2;
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&proto, &tensor), -2);
  CHECK(check_no_error_pending());
  /* Success with no tensor is an error. */
  g_return_code = 0;
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&proto, &tensor), -1);
  CHECK_RAISED("RuntimeError", "returned a NULL tensor");
  /* A tensor we cannot wrap is handed back to its deleter. */
  TVMFFIEnvSetDLPackManagedTensorAllocator(bad_subbyte_allocator, 0, NULL);
  g_free_calls = 0;
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&proto, &tensor), -1);
  CHECK_RAISED("RuntimeError", "Subbyte");
  CHECK_EQ_INT(g_free_calls, 1);
  TVMFFIEnvSetDLPackManagedTensorAllocator(NULL, 0, NULL);

  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(NULL, &tensor), -1);
  CHECK_RAISED("ValueError", "prototype and out are required");
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&proto, NULL), -1);
  CHECK_RAISED("ValueError", "TVMFFIEnvTensorAlloc");
  proto.shape = NULL;
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&proto, &tensor), -1);
  CHECK_RAISED("ValueError", "bad prototype");
}

static void test_env_tensor_alloc_default_cpu(void) {
  CHECK(TVMFFIEnvGetDLPackManagedTensorAllocator() == NULL);
  int64_t shape[2] = {3, 5};
  DLTensor proto = prototype(kDLCPU, 2, shape, kDLFloat, 32, 1);
  void* tensor = NULL;
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&proto, &tensor), 0);
  DLTensor* t = TVMFFITensorGetDLTensorPtr(tensor);
  CHECK(t->data != NULL);
  CHECK_EQ_INT((uintptr_t)t->data % 64, 0);
  CHECK(t->shape != shape); /* its own copy of the shape */
  CHECK_EQ_INT(t->shape[0], 3);
  CHECK_EQ_INT(t->shape[1], 5);
  CHECK_EQ_INT(t->strides[0], 5);
  CHECK_EQ_INT(t->strides[1], 1);
  CHECK_EQ_INT(t->byte_offset, 0);
  float* data = (float*)t->data;
  int zeroed = 1;
  for (int i = 0; i < 15; ++i) zeroed &= data[i] == 0.0f;
  CHECK(zeroed);
  data[14] = 1.0f; /* writable over the whole extent (ASan checks the bounds) */
  /* It exports like any tensor and is freed when the last reference goes (LSan checks). */
  DLManagedTensorVersioned* v = NULL;
  CHECK_EQ_INT(TVMFFITensorToDLPackVersioned(tensor, &v), 0);
  TVMFFIObjectDecRef(tensor);
  CHECK(((float*)v->dl_tensor.data)[14] == 1.0f);
  v->deleter(v);

  /* Sub-byte and vector dtypes round the element size up to whole bytes. */
  int64_t odd[1] = {3};
  DLTensor bits4 = prototype(kDLCPU, 1, odd, kDLInt, 4, 1);
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&bits4, &tensor), 0);
  ((uint8_t*)TVMFFITensorGetDLTensorPtr(tensor)->data)[2] = 7;
  TVMFFIObjectDecRef(tensor);
  DLTensor vec = prototype(kDLCPU, 1, odd, kDLFloat, 32, 4);
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&vec, &tensor), 0);
  ((float*)TVMFFITensorGetDLTensorPtr(tensor)->data)[11] = 2.0f;
  TVMFFIObjectDecRef(tensor);

  /* Empty and 0-d tensors. */
  int64_t empty[2] = {0, 7};
  DLTensor none = prototype(kDLCPU, 2, empty, kDLFloat, 64, 1);
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&none, &tensor), 0);
  CHECK(TVMFFITensorGetDLTensorPtr(tensor)->data != NULL);
  CHECK_EQ_INT(TVMFFITensorGetDLTensorPtr(tensor)->shape[0], 0);
  TVMFFIObjectDecRef(tensor);
  DLTensor scalar = prototype(kDLCPU, 0, NULL, kDLFloat, 64, 1);
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&scalar, &tensor), 0);
  CHECK_EQ_INT(TVMFFITensorGetDLTensorPtr(tensor)->ndim, 0);
  CHECK(TVMFFITensorGetDLTensorPtr(tensor)->strides == NULL);
  CHECK_EQ_INT(*(double*)TVMFFITensorGetDLTensorPtr(tensor)->data, 0);
  TVMFFIObjectDecRef(tensor);

  /* Sizes that do not fit, and negative extents. */
  int64_t huge[3] = {INT64_MAX / 4, 8, 1};
  DLTensor too_big = prototype(kDLCPU, 3, huge, kDLFloat, 32, 1);
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&too_big, &tensor), -1);
  CHECK_RAISED("ValueError", "tensor size overflows");
  int64_t negative[1] = {-1};
  DLTensor neg = prototype(kDLCPU, 1, negative, kDLFloat, 32, 1);
  CHECK_EQ_INT(TVMFFIEnvTensorAlloc(&neg, &tensor), -1);
  CHECK_RAISED("ValueError", "shape[0] is negative (-1)");
}

/* ---- signals ---- */

static int g_check_calls, g_ensure_calls, g_release_calls, g_release_state, g_check_result;

static int fake_check_signals(void) {
  g_check_calls++;
  CHECK_EQ_INT(g_ensure_calls, g_release_calls + 1); /* called with the "GIL" held */
  return g_check_result;
}
static int fake_gil_ensure(void) {
  g_ensure_calls++;
  return 42;
}
static void fake_gil_release(int state) {
  g_release_calls++;
  g_release_state = state;
}

static void test_check_signals(void) {
  CHECK_EQ_INT(TVMFFIEnvCheckSignals(), 0); /* nothing registered: nothing to check */
  CHECK_EQ_INT(TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", (void*)fake_check_signals), 0);
  CHECK_EQ_INT(TVMFFIEnvRegisterCAPI("PyGILState_Ensure", (void*)fake_gil_ensure), 0);
  CHECK_EQ_INT(TVMFFIEnvRegisterCAPI("PyGILState_Release", (void*)fake_gil_release), 0);
  g_check_result = 0;
  CHECK_EQ_INT(TVMFFIEnvCheckSignals(), 0);
  CHECK_EQ_INT(g_check_calls, 1);
  CHECK_EQ_INT(g_ensure_calls, 1);
  CHECK_EQ_INT(g_release_calls, 1);
  CHECK_EQ_INT(g_release_state, 42); /* the state from Ensure goes back to Release */
  /* A pending frontend exception: -1, and no FFI error is raised. */
  g_check_result = -1;
  CHECK_EQ_INT(TVMFFIEnvCheckSignals(), -1);
  CHECK_EQ_INT(g_check_calls, 2);
  CHECK_EQ_INT(g_release_calls, 2);
  CHECK(check_no_error_pending());
  /* Unregistering turns the check off again. */
  CHECK_EQ_INT(TVMFFIEnvRegisterCAPI("PyErr_CheckSignals", NULL), 0);
  CHECK_EQ_INT(TVMFFIEnvCheckSignals(), 0);
  CHECK_EQ_INT(g_check_calls, 2);
  TVMFFIEnvRegisterCAPI("PyGILState_Ensure", NULL);
  TVMFFIEnvRegisterCAPI("PyGILState_Release", NULL);
}

static void test_register_capi_rejects_unknown_names(void) {
  CHECK_EQ_INT(TVMFFIEnvRegisterCAPI("PyErr_Occurred", (void*)fake_check_signals), -1);
  CHECK_RAISED("ValueError", "Unknown env API PyErr_Occurred");
  CHECK_EQ_INT(TVMFFIEnvRegisterCAPI(NULL, NULL), -1);
  CHECK_RAISED("ValueError", "TVMFFIEnvRegisterCAPI: name is NULL");
  CHECK_EQ_INT(TVMFFIEnvCheckSignals(), 0);
}

int main(void) {
  RUN(test_streams_set_get_and_restore);
  RUN(test_streams_large_device_ids);
  RUN(test_streams_reject_negative_devices);
  RUN(test_streams_are_per_thread);
  RUN(test_allocator_thread_local_and_global);
  RUN(test_env_tensor_alloc_with_custom_allocator);
  RUN(test_env_tensor_alloc_failures);
  RUN(test_env_tensor_alloc_default_cpu);
  RUN(test_check_signals);
  RUN(test_register_capi_rejects_unknown_names);
  return CHECK_MAIN_RESULT();
}
