/*
 * env.c -- what kernels ask of their embedding environment (extra/c_env_api.h): the
 * current stream per device, the DLPack tensor allocator, and the frontend's signal check.
 *
 * Streams and the allocator are per thread, so a framework can set them around a call without
 * locking and without disturbing other threads. The module-context entry points of
 * c_env_api.h live in module_load.c, module_system_symbols.c and module.c.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>

#include "internal.h"

/* ---- streams ----
 * Every real device type is below 32 and most processes use few devices, so a fixed
 * thread-local table answers nearly every lookup with two array indexings; anything larger
 * goes to a small per-thread list that is freed when the thread exits. */

enum { kFastDeviceTypes = 32, kFastDeviceIds = 16 };

typedef struct {
  int32_t device_type;
  int32_t device_id;
  TVMFFIStreamHandle stream;
} StreamEntry;

typedef struct {
  StreamEntry* entries;
  size_t size;
  size_t capacity;
} StreamList;

static _Thread_local TVMFFIStreamHandle tls_fast_streams[kFastDeviceTypes][kFastDeviceIds];
static _Thread_local StreamList tls_slow_streams;

static pthread_key_t g_slow_streams_key;
static pthread_once_t g_slow_streams_once = PTHREAD_ONCE_INIT;

/* Runs at thread exit (in the exiting thread) for threads that used the slow list. */
static void slow_streams_free(void* entries) {
  free(entries);
  tls_slow_streams.entries = NULL;
  tls_slow_streams.size = 0;
  tls_slow_streams.capacity = 0;
}

static void slow_streams_key_init(void) {
  /* Without the key the list would leak at thread exit; failing here is not recoverable. */
  if (pthread_key_create(&g_slow_streams_key, slow_streams_free) != 0) {
    ffi_fatal("TVMFFIEnvSetStream", "cannot create the thread-exit hook for stream tables");
  }
}

static bool is_fast_slot(int32_t device_type, int32_t device_id) {
  return (uint32_t)device_type < kFastDeviceTypes && (uint32_t)device_id < kFastDeviceIds;
}

static StreamEntry* slow_find(int32_t device_type, int32_t device_id) {
  StreamList* list = &tls_slow_streams;
  for (size_t i = 0; i < list->size; ++i) {
    if (list->entries[i].device_type == device_type && list->entries[i].device_id == device_id) {
      return &list->entries[i];
    }
  }
  return NULL;
}

static int slow_append(int32_t device_type, int32_t device_id, TVMFFIStreamHandle stream) {
  StreamList* list = &tls_slow_streams;
  if (list->size == list->capacity) {
    size_t capacity = list->capacity == 0 ? 8 : list->capacity * 2;
    StreamEntry* grown = (StreamEntry*)realloc(list->entries, capacity * sizeof(StreamEntry));
    if (grown == NULL) {
      return ffi_raise("MemoryError", "TVMFFIEnvSetStream: out of memory for device (%d, %d)",
                       (int)device_type, (int)device_id);
    }
    pthread_once(&g_slow_streams_once, slow_streams_key_init);
    if (pthread_setspecific(g_slow_streams_key, grown) != 0) {
      list->entries = grown;
      list->capacity = capacity;
      return ffi_raise("MemoryError", "TVMFFIEnvSetStream: cannot register the thread-exit hook");
    }
    list->entries = grown;
    list->capacity = capacity;
  }
  StreamEntry* entry = &list->entries[list->size++];
  entry->device_type = device_type;
  entry->device_id = device_id;
  entry->stream = stream;
  return 0;
}

int TVMFFIEnvSetStream(int32_t device_type, int32_t device_id, TVMFFIStreamHandle stream,
                       TVMFFIStreamHandle* opt_out_original_stream) {
  if (device_type < 0 || device_id < 0) {
    return ffi_raise("ValueError",
                     "TVMFFIEnvSetStream: device_type and device_id must be >= 0, got (%d, %d)",
                     (int)device_type, (int)device_id);
  }
  if (is_fast_slot(device_type, device_id)) {
    TVMFFIStreamHandle* slot = &tls_fast_streams[device_type][device_id];
    if (opt_out_original_stream != NULL) *opt_out_original_stream = *slot;
    *slot = stream;
    return 0;
  }
  StreamEntry* entry = slow_find(device_type, device_id);
  if (entry != NULL) {
    if (opt_out_original_stream != NULL) *opt_out_original_stream = entry->stream;
    entry->stream = stream;
    return 0;
  }
  /* Never set before: the previous value is NULL, and storing NULL needs no entry. */
  if (stream != NULL && slow_append(device_type, device_id, stream) != 0) return -1;
  if (opt_out_original_stream != NULL) *opt_out_original_stream = NULL;
  return 0;
}

TVMFFIStreamHandle TVMFFIEnvGetStream(int32_t device_type, int32_t device_id) {
  if (FFI_LIKELY(is_fast_slot(device_type, device_id))) {
    return tls_fast_streams[device_type][device_id];
  }
  StreamEntry* entry = slow_find(device_type, device_id);
  return entry != NULL ? entry->stream : NULL;
}

/* ---- tensor allocator: this thread's choice first, then the process default ---- */

static _Thread_local DLPackManagedTensorAllocator tls_allocator;
static _Atomic(DLPackManagedTensorAllocator) g_allocator;

int TVMFFIEnvSetDLPackManagedTensorAllocator(
    DLPackManagedTensorAllocator allocator, int write_to_global_context,
    DLPackManagedTensorAllocator* opt_out_original_allocator) {
  if (opt_out_original_allocator != NULL) *opt_out_original_allocator = tls_allocator;
  tls_allocator = allocator;
  if (write_to_global_context != 0) {
    atomic_store_explicit(&g_allocator, allocator, memory_order_release);
  }
  return 0;
}

DLPackManagedTensorAllocator TVMFFIEnvGetDLPackManagedTensorAllocator(void) {
  if (tls_allocator != NULL) return tls_allocator;
  return atomic_load_explicit(&g_allocator, memory_order_acquire);
}

/* ---- built-in CPU allocator, used when no allocator is set ----
 * The reference refuses to allocate without an environment allocator; plain C hosts have none,
 * so CPU tensors get 64-byte-aligned, zeroed host memory that is freed with the tensor. */

enum { kCpuAlignment = 64 };

static void cpu_tensor_deleter(DLManagedTensorVersioned* self) {
  free(self->dl_tensor.data);
  free(self);
}

/* Size in bytes of a compact tensor shaped like t; ValueError on overflow. */
static int compact_nbytes(const DLTensor* t, size_t* out) {
  uint64_t bits_per_element = (uint64_t)t->dtype.bits * t->dtype.lanes;
  uint64_t nbytes = (bits_per_element + 7) / 8;
  for (int32_t i = 0; i < t->ndim; ++i) {
    if (t->shape[i] < 0) {
      return ffi_raise("ValueError", "TVMFFIEnvTensorAlloc: shape[%d] is negative (%" PRId64 ")",
                       (int)i, t->shape[i]);
    }
    if (__builtin_mul_overflow(nbytes, (uint64_t)t->shape[i], &nbytes)) {
      return ffi_raise("ValueError", "TVMFFIEnvTensorAlloc: tensor size overflows");
    }
  }
  /* Round up to the alignment (aligned_alloc wants a multiple of it) and never ask for 0. */
  if (nbytes == 0) nbytes = kCpuAlignment;
  if (nbytes > SIZE_MAX - (kCpuAlignment - 1)) {
    return ffi_raise("ValueError", "TVMFFIEnvTensorAlloc: tensor size overflows");
  }
  *out = (size_t)((nbytes + kCpuAlignment - 1) / kCpuAlignment * kCpuAlignment);
  return 0;
}

static int cpu_alloc(const DLTensor* prototype, DLManagedTensorVersioned** out) {
  size_t nbytes = 0;
  if (compact_nbytes(prototype, &nbytes) != 0) return -1;
  size_t ndim = (size_t)prototype->ndim;
  DLManagedTensorVersioned* mt =
      (DLManagedTensorVersioned*)calloc(1, sizeof(DLManagedTensorVersioned) + ndim * sizeof(int64_t));
  void* data = mt != NULL ? aligned_alloc(kCpuAlignment, nbytes) : NULL;
  if (data == NULL) {
    free(mt);
    return ffi_raise("MemoryError", "TVMFFIEnvTensorAlloc: cannot allocate %zu bytes on cpu:%d",
                     nbytes, (int)prototype->device.device_id);
  }
  memset(data, 0, nbytes);
  /* The shape lives right after the struct, so one free releases both. */
  int64_t* shape = (int64_t*)(mt + 1);
  if (ndim != 0) memcpy(shape, prototype->shape, ndim * sizeof(int64_t));
  mt->version.major = DLPACK_MAJOR_VERSION;
  mt->version.minor = DLPACK_MINOR_VERSION;
  mt->deleter = cpu_tensor_deleter;
  mt->dl_tensor.data = data;
  mt->dl_tensor.device = prototype->device;
  mt->dl_tensor.ndim = prototype->ndim;
  mt->dl_tensor.dtype = prototype->dtype;
  mt->dl_tensor.shape = ndim != 0 ? shape : NULL;
  mt->dl_tensor.strides = NULL; /* the tensor object appends compact strides */
  *out = mt;
  return 0;
}

/* ---- TVMFFIEnvTensorAlloc ---- */

/* Set when the environment allocator reported its failure, so a bare -1 can be explained. */
static _Thread_local bool tls_allocator_raised;

static void allocator_set_error(void* error_ctx, const char* kind, const char* message) {
  (void)error_ctx;
  tls_allocator_raised = true;
  TVMFFIErrorSetRaisedFromCStr(kind != NULL ? kind : "RuntimeError",
                               message != NULL ? message : "");
}

static int env_alloc(DLPackManagedTensorAllocator alloc, DLTensor* prototype,
                     DLManagedTensorVersioned** out) {
  tls_allocator_raised = false;
  int rc = alloc(prototype, out, NULL, allocator_set_error);
  if (rc == -1 && !tls_allocator_raised) {
    return ffi_raise("RuntimeError",
                     "TVMFFIEnvTensorAlloc: the environment allocator failed without an error");
  }
  if (rc != 0) return rc; /* passed through: -2 means a frontend error is already set */
  if (*out == NULL) {
    return ffi_raise("RuntimeError",
                     "TVMFFIEnvTensorAlloc: the environment allocator returned a NULL tensor");
  }
  return 0;
}

int TVMFFIEnvTensorAlloc(DLTensor* prototype, TVMFFIObjectHandle* out) {
  if (prototype == NULL || out == NULL) {
    return ffi_raise("ValueError", "TVMFFIEnvTensorAlloc: prototype and out are required");
  }
  if (prototype->ndim < 0 || (prototype->ndim > 0 && prototype->shape == NULL)) {
    return ffi_raise("ValueError", "TVMFFIEnvTensorAlloc: bad prototype: ndim %d, shape %p",
                     (int)prototype->ndim, (void*)prototype->shape);
  }
  DLPackManagedTensorAllocator alloc = TVMFFIEnvGetDLPackManagedTensorAllocator();
  DLManagedTensorVersioned* mt = NULL;
  int rc;
  if (alloc != NULL) {
    rc = env_alloc(alloc, prototype, &mt);
  } else if (prototype->device.device_type == kDLCPU) {
    rc = cpu_alloc(prototype, &mt);
  } else {
    return ffi_raise("RuntimeError",
                     "TVMFFIEnvTensorAlloc: allocator is nullptr, likely because "
                     "TVMFFIEnvSetDLPackManagedTensorAllocator has not been called. There is no "
                     "built-in allocator for device type %d (id %d), only for CPU",
                     (int)prototype->device.device_type, (int)prototype->device.device_id);
  }
  if (rc != 0) return rc;
  if (TVMFFITensorFromDLPackVersioned(mt, 0, 0, out) != 0) {
    /* Ownership stayed with us: give the memory back before reporting. */
    if (mt->deleter != NULL) mt->deleter(mt);
    return -1;
  }
  return 0;
}

/* ---- frontend signal check ---- */

static _Atomic(void*) g_py_check_signals;  /* int (*)(void) */
static _Atomic(void*) g_py_gil_ensure;     /* int (*)(void), returns a PyGILState_STATE */
static _Atomic(void*) g_py_gil_release;    /* void (*)(int) */

int TVMFFIEnvRegisterCAPI(const char* name, void* symbol) {
  if (name == NULL) return ffi_raise("ValueError", "TVMFFIEnvRegisterCAPI: name is NULL");
  _Atomic(void*)* slot = NULL;
  if (strcmp(name, "PyErr_CheckSignals") == 0) {
    slot = &g_py_check_signals;
  } else if (strcmp(name, "PyGILState_Ensure") == 0) {
    slot = &g_py_gil_ensure;
  } else if (strcmp(name, "PyGILState_Release") == 0) {
    slot = &g_py_gil_release;
  } else {
    return ffi_raise("ValueError", "Unknown env API %s", name);
  }
  atomic_store_explicit(slot, symbol, memory_order_release);
  return 0;
}

int TVMFFIEnvCheckSignals(void) {
  void* check = atomic_load_explicit(&g_py_check_signals, memory_order_acquire);
  if (check == NULL) return 0;
  void* ensure = atomic_load_explicit(&g_py_gil_ensure, memory_order_acquire);
  void* release = atomic_load_explicit(&g_py_gil_release, memory_order_acquire);
  /* Kernels call this from any thread, with or without the GIL; the check needs it. */
  bool take_gil = ensure != NULL && release != NULL;
  int gil_state = take_gil ? ((int (*)(void))ensure)() : 0;
  int rc = ((int (*)(void))check)();
  if (take_gil) ((void (*)(int))release)(gil_state);
  /* The frontend keeps its own pending exception; the caller raises EnvErrorAlreadySet. */
  return rc != 0 ? -1 : 0;
}
