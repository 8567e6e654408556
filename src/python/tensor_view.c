/*
 * tensor_view.c -- ffi.Tensor objects that _core makes itself over memory a Python object owns.
 *
 * A NumPy array or a framework tensor passed to a function lives at least as long as the call,
 * and usually longer. Wrapping it through a DLPack managed tensor costs two allocations and the
 * producer's export (for torch: a C++ allocation, a tensor copy and a GIL round trip) per
 * argument. A view instead is one block, recycled: the object header (type index
 * kTVMFFITensor), the DLTensor at +24 that kernels and the runtime read, a strong reference to
 * the Python owner, then shape and strides copied from the owner. Its deleter drops the owner
 * under the GIL. The runtime treats it like any other tensor: it reads only the DLTensor, as it
 * must for tensors that kernels allocate with their own layouts.
 */
#include "tensor_view.h"

#include <stdlib.h>

#include "owned_block.h"

typedef struct {
  TVMFFIObject header;
  DLTensor tensor;
  PyObject* owner; /* strong reference; NULL while the block is being filled */
  uint64_t flags;  /* DLPACK_FLAG_BITMASK_READ_ONLY for read-only owners */
  int32_t capacity; /* dimensions the block has room for */
  int64_t dims[];   /* shape[capacity], then strides[capacity] */
} ViewTensor;

/* Blocks for up to this many dimensions are recycled; a call's argument tensors come and go at
 * call rate. The pool is touched only with the GIL held. */
#define VIEW_POOL_NDIM 4
#define VIEW_POOL_MAX 64
static ViewTensor* g_pool[VIEW_POOL_MAX];
static int g_pool_size = 0;

/* Views alive (made and not yet freed), for leak checks next to ffi.LiveObjectCount. Every
 * change happens with the GIL held (blocks are made and freed only under it), so a plain
 * counter serves: an atomic one costs two locked instructions per argument. */
static long g_live_views;

/* Back to the pool, or freed (GIL held). */
static void view_free_block(void* self) {
  ViewTensor* view = (ViewTensor*)self;
  --g_live_views;
  if (view->capacity == VIEW_POOL_NDIM && g_pool_size < VIEW_POOL_MAX) {
    g_pool[g_pool_size++] = view;
  } else {
    free(view);
  }
}

static void view_deleter(void* self, int flags) {
  core_owned_block_delete(self, flags, &((ViewTensor*)self)->owner, view_free_block);
}

/* A fresh view with room for `ndim` dimensions, its DLTensor's shape and strides pointing at
 * them; the caller fills the rest and sets the owner. NULL with MemoryError. GIL held. */
static ViewTensor* view_alloc(int32_t ndim) {
  ViewTensor* view;
  if (ndim <= VIEW_POOL_NDIM && g_pool_size > 0) {
    view = g_pool[--g_pool_size];
  } else {
    int32_t capacity = ndim <= VIEW_POOL_NDIM ? VIEW_POOL_NDIM : ndim;
    view = (ViewTensor*)malloc(sizeof(ViewTensor) + 2 * (size_t)capacity * sizeof(int64_t));
    if (view == NULL) {
      PyErr_NoMemory();
      return NULL;
    }
    view->capacity = capacity;
  }
  ++g_live_views;
  view->header.combined_ref_count = FFI_FRESH_REFCOUNT;
  view->header.type_index = kTVMFFITensor;
  view->header.__padding = 0;
  view->header.deleter = view_deleter;
  view->owner = NULL;
  view->flags = 0;
  view->tensor.shape = view->dims;
  view->tensor.strides = view->dims + view->capacity;
  view->tensor.ndim = ndim;
  return view;
}

/* Releases a view that never left this file (the GIL is held, the owner not yet set). */
static void view_discard(ViewTensor* view) { view_free_block(view); }

uint64_t core_view_tensor_flags(TVMFFIObjectHandle handle) {
  ViewTensor* view = (ViewTensor*)handle;
  return view->header.deleter == view_deleter ? view->flags : 0;
}

int core_view_tensor_release_sole(TVMFFIObjectHandle handle) {
  ViewTensor* view = (ViewTensor*)handle;
  if (view->header.deleter != view_deleter) return 0;
  if (!core_owned_block_is_sole(&view->header)) return 0;
  Py_CLEAR(view->owner);
  view_free_block(view);
  return 1;
}

/* Copies the shape and strides a description points at into the view's own dims (NULL
 * strides mean compact row-major: tensors this package hands out always carry strides). */
static void view_copy_dims(ViewTensor* view, const int64_t* shape, const int64_t* strides) {
  int32_t ndim = view->tensor.ndim;
  int64_t* own_shape = view->dims;
  int64_t* own_strides = view->dims + view->capacity;
  for (int32_t i = 0; i < ndim; ++i) own_shape[i] = shape[i];
  if (strides != NULL) {
    for (int32_t i = 0; i < ndim; ++i) own_strides[i] = strides[i];
  } else {
    int64_t stride = 1;
    for (int32_t i = ndim - 1; i >= 0; --i) {
      own_strides[i] = stride;
      stride *= own_shape[i];
    }
  }
  view->tensor.shape = own_shape;
  view->tensor.strides = own_strides;
}

int core_view_tensor_from_dltensor(PyObject* owner, const DLTensor* t, TVMFFIObjectHandle* out) {
  if (t->ndim < 0) {
    PyErr_Format(PyExc_BufferError, "`%s` exported a tensor with ndim %d",
                 Py_TYPE(owner)->tp_name, (int)t->ndim);
    return -1;
  }
  ViewTensor* view = view_alloc(t->ndim);
  if (view == NULL) return -1;
  view_copy_dims(view, t->shape, t->strides);
  view->tensor.data = t->data;
  view->tensor.device = t->device;
  view->tensor.dtype = t->dtype;
  view->tensor.byte_offset = t->byte_offset;
  Py_INCREF(owner);
  view->owner = owner;
  *out = (TVMFFIObjectHandle)view;
  return 0;
}

int core_view_tensor_from_exchange(PyObject* owner, DLPackDLTensorFromPyObjectNoSync describe,
                                   TVMFFIObjectHandle* out) {
  /* The framework writes its description straight into a recycled block; only its shape and
   * strides, which point into the framework's tensor, need copying next to it. */
  ViewTensor* view = view_alloc(0);
  if (view == NULL) return -1;
  DLTensor* t = &view->tensor;
  if (describe(owner, t) != 0) {
    view_discard(view);
    if (!PyErr_Occurred()) {
      PyErr_Format(PyExc_RuntimeError, "`%s` exchange API failed to describe a tensor",
                   Py_TYPE(owner)->tp_name);
    }
    return -1;
  }
  if (CORE_UNLIKELY(t->ndim > view->capacity || t->ndim < 0)) {
    DLTensor copy = *t; /* more dimensions than a pooled block holds: a block of its own */
    view_discard(view);
    return core_view_tensor_from_dltensor(owner, &copy, out);
  }
  view_copy_dims(view, t->shape, t->strides);
  Py_INCREF(owner);
  view->owner = owner;
  *out = (TVMFFIObjectHandle)view;
  return 0;
}

int core_view_tensor_from_strided(PyObject* owner, void* data, DLDataType dtype, int32_t ndim,
                                  const Py_ssize_t* shape, const Py_ssize_t* byte_strides,
                                  int read_only, TVMFFIObjectHandle* out) {
  ViewTensor* view = view_alloc(ndim);
  if (view == NULL) return -1;
  int64_t itemsize = (dtype.bits * (int64_t)dtype.lanes + 7) / 8;
  for (int32_t i = 0; i < ndim; ++i) {
    if (itemsize == 0 || byte_strides[i] % itemsize != 0) { /* not whole elements */
      view_discard(view);
      return 0;
    }
    view->tensor.shape[i] = shape[i];
    view->tensor.strides[i] = byte_strides[i] / itemsize;
  }
  view->tensor.data = data;
  view->tensor.device.device_type = kDLCPU;
  view->tensor.device.device_id = 0;
  view->tensor.dtype = dtype;
  view->tensor.byte_offset = 0;
  view->flags = read_only ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  Py_INCREF(owner);
  view->owner = owner;
  *out = (TVMFFIObjectHandle)view;
  return 1;
}

static PyObject* mod_live_tensor_views(PyObject* self, PyObject* unused) {
  (void)self;
  (void)unused;
  return PyLong_FromLong(g_live_views);
}

static PyMethodDef view_methods[] = {
    {"_live_tensor_views", mod_live_tensor_views, METH_NOARGS,
     "Tensors made by _core over Python-owned memory that are still alive (for leak checks)."},
    {NULL, NULL, 0, NULL},
};

int core_tensor_view_init(PyObject* module) { return PyModule_AddFunctions(module, view_methods); }
