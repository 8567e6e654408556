/*
 * tensor_import.c -- foreign tensors into ffi.Tensor: from_dlpack, and tensor arguments of
 * calls.
 *
 * Import order for a foreign tensor: a C exchange API published by the producer's type
 * (__dlpack_c_exchange_api__, found once per type by the dispatch table), else
 * __dlpack__(max_version=(1, 3)) (versioned capsule), else __dlpack__() when the producer
 * rejects max_version with TypeError. A capsule is renamed "used_..." only after the runtime
 * took ownership, so on any failure the capsule's own destructor still frees the producer's
 * tensor. Exact NumPy arrays skip __dlpack__: their C struct (or buffer) is read directly.
 */
#include "tensor_import.h"

#include <stdlib.h>
#include <string.h>

#include "convert_args.h"
#include "dispatch.h"
#include "error.h"
#include "fastcall_args.h"
#include "tensor.h"
#include "tensor_view.h"

static PyObject* g_str_dlpack = NULL;          /* "__dlpack__" */
static PyObject* g_kwnames_max_version = NULL; /* ("max_version",) */
static PyObject* g_max_version = NULL;         /* (1, 3) */

/* A view of an instance of a type whose exchange API describes tensors in place. */
static int view_of(const CoreDispatchEntry* entry, PyObject* value, TVMFFIObjectHandle* out) {
  return core_view_tensor_from_exchange(value, entry->api->dltensor_from_py_object_no_sync, out);
}

/* ---- import: Python producer -> owned ffi.Tensor handle ---- */

static int import_from_capsule(PyObject* capsule, PyTypeObject* producer, int32_t alignment,
                               int32_t contiguous, TVMFFIObjectHandle* out, int* read_only) {
  if (!PyCapsule_CheckExact(capsule)) {
    PyErr_Format(PyExc_TypeError, "`%s.__dlpack__()` must return a PyCapsule, got `%s`",
                 producer->tp_name, Py_TYPE(capsule)->tp_name);
    return -1;
  }
  const char* name = PyCapsule_GetName(capsule);
  if (name == NULL && PyErr_Occurred()) return -1;
  int rc;
  if (name != NULL && strcmp(name, CORE_CAPSULE_VERSIONED) == 0) {
    DLManagedTensorVersioned* mt = PyCapsule_GetPointer(capsule, CORE_CAPSULE_VERSIONED);
    if (mt == NULL) return -1;
    if (mt->version.major != DLPACK_MAJOR_VERSION) {
      PyErr_Format(PyExc_BufferError, "unsupported DLPack version %u.%u from `%s` (expected %d.x)",
                   mt->version.major, mt->version.minor, producer->tp_name,
                   DLPACK_MAJOR_VERSION);
      return -1;
    }
    *read_only = (mt->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
    rc = TVMFFITensorFromDLPackVersioned(mt, alignment, contiguous, out);
    if (rc == 0 && PyCapsule_SetName(capsule, CORE_CAPSULE_VERSIONED_USED) != 0) goto fail_owned;
  } else if (name != NULL && strcmp(name, CORE_CAPSULE_LEGACY) == 0) {
    DLManagedTensor* mt = PyCapsule_GetPointer(capsule, CORE_CAPSULE_LEGACY);
    if (mt == NULL) return -1;
    rc = TVMFFITensorFromDLPack(mt, alignment, contiguous, out);
    if (rc == 0 && PyCapsule_SetName(capsule, CORE_CAPSULE_LEGACY_USED) != 0) goto fail_owned;
  } else {
    PyErr_Format(PyExc_ValueError,
                 "`%s.__dlpack__()` returned a capsule named '%s', expected 'dltensor' or "
                 "'dltensor_versioned' (a capsule can be consumed only once)",
                 producer->tp_name, name != NULL ? name : "");
    return -1;
  }
  if (rc != 0) {
    core_raise_from_rc(rc);
    return -1;
  }
  return 0;
fail_owned:
  /* The tensor owns the managed struct now; releasing it frees it once. */
  TVMFFIObjectDecRef(*out);
  *out = NULL;
  return -1;
}

/* ---- NumPy fast path: the C buffer protocol instead of a __dlpack__ method call ---- */

/* One allocation: the managed tensor, the buffer view it owns, then shape and strides. */
typedef struct {
  DLManagedTensorVersioned mt;
  Py_buffer view;
  int64_t dims[];
} BufferTensor;

static void buffer_tensor_deleter(DLManagedTensorVersioned* mt) {
  BufferTensor* bt = (BufferTensor*)mt;
  /* The last reference may go away on any thread, or after the interpreter is gone. */
  if (!Py_IsInitialized()) return;
  PyGILState_STATE gil = PyGILState_Ensure();
  PyBuffer_Release(&bt->view);
  PyGILState_Release(gil);
  free(bt);
}

/* struct-module format of one element -> DLDataType; 0 when not a plain number type. */
static int dtype_from_format(const char* fmt, Py_ssize_t itemsize, DLDataType* out) {
  if (fmt == NULL) fmt = "B";
  if (*fmt == '@' || *fmt == '=' || *fmt == (PY_LITTLE_ENDIAN ? '<' : '>')) ++fmt;
  uint8_t code;
  if (fmt[0] == 'Z') {
    if ((fmt[1] != 'f' && fmt[1] != 'd') || fmt[2] != '\0') return 0;
    code = kDLComplex;
  } else {
    if (fmt[0] == '\0' || fmt[1] != '\0') return 0;
    switch (fmt[0]) {
      case '?': code = kDLBool; break;
      case 'b': case 'h': case 'i': case 'l': case 'q': code = kDLInt; break;
      case 'B': case 'H': case 'I': case 'L': case 'Q': code = kDLUInt; break;
      case 'e': case 'f': case 'd': code = kDLFloat; break;
      default: return 0;
    }
  }
  if (itemsize <= 0 || itemsize > 16) return 0;
  out->code = code;
  out->bits = (uint8_t)(itemsize * 8);
  out->lanes = 1;
  return 1;
}

static int import_numpy_buffer(PyObject* value, int32_t alignment, int32_t contiguous,
                               TVMFFIObjectHandle* out, int* read_only);

/* NumPy's array and descriptor structs: the leading fields, stable across NumPy 1.x and 2.x
 * (every compiled NumPy extension depends on them). Reading them skips the buffer protocol's
 * format-string work; the layout is checked against the buffer protocol once (see below). */
typedef struct {
  PyObject_HEAD
  char* data;
  int nd;
  Py_ssize_t* dimensions;
  Py_ssize_t* strides;
  PyObject* base;
  PyObject* descr;
  int flags;
} NumpyArrayHead;

typedef struct {
  PyObject_HEAD
  PyTypeObject* typeobj;
  char kind, type, byteorder, former_flags;
  int type_num;
} NumpyDescrHead;

#define NUMPY_ARRAY_WRITEABLE 0x0400

/* NumPy type numbers -> DLDataType (code, bytes); code 0xff: not a DLPack number type. */
static const struct { uint8_t code, bytes; } kNumpyTypes[] = {
    {kDLBool, 1},  {kDLInt, 1},   {kDLUInt, 1},   {kDLInt, 2},
    {kDLUInt, 2},  {kDLInt, 4},   {kDLUInt, 4},   {kDLInt, sizeof(long)},
    {kDLUInt, sizeof(long)},      {kDLInt, 8},    {kDLUInt, 8},  {kDLFloat, 4},
    {kDLFloat, 8}, {0xff, 0},     {kDLComplex, 8}, {kDLComplex, 16},
};
#define NUMPY_HALF 23

/* -1: not checked yet; 0: the struct layout did not match, use the buffer protocol; 1: use it. */
static int g_numpy_struct_ok = -1;

/* Structured view of an exact numpy.ndarray; 0 when its dtype is not a plain number type. */
static int numpy_struct_read(PyObject* value, DLTensor* t, Py_ssize_t** byte_strides,
                             int* readonly) {
  NumpyArrayHead* a = (NumpyArrayHead*)value;
  NumpyDescrHead* d = (NumpyDescrHead*)a->descr;
  if (d->byteorder == (PY_LITTLE_ENDIAN ? '>' : '<')) return 0;
  int num = d->type_num;
  uint8_t code, bytes;
  if (num >= 0 && num < (int)(sizeof(kNumpyTypes) / sizeof(kNumpyTypes[0]))) {
    code = kNumpyTypes[num].code;
    bytes = kNumpyTypes[num].bytes;
  } else if (num == NUMPY_HALF) {
    code = kDLFloat;
    bytes = 2;
  } else {
    return 0;
  }
  if (code == 0xff || a->nd < 0 || a->nd > 64) return 0;
  t->data = a->data;
  t->ndim = a->nd;
  t->dtype.code = code;
  t->dtype.bits = (uint8_t)(bytes * 8);
  t->dtype.lanes = 1;
  t->shape = (int64_t*)a->dimensions; /* read only until copied below */
  *byte_strides = a->strides;
  *readonly = (a->flags & NUMPY_ARRAY_WRITEABLE) == 0;
  return 1;
}

/* Compares the struct reading with the buffer protocol on the first array seen. */
static int numpy_struct_matches(PyObject* value) {
  Py_buffer view;
  if (PyObject_GetBuffer(value, &view, PyBUF_RECORDS_RO) != 0) {
    PyErr_Clear();
    return -1; /* undecided: try again with another array */
  }
  DLTensor t;
  DLDataType from_format;
  Py_ssize_t* strides;
  int readonly;
  int ok = -1;
  if (dtype_from_format(view.format, view.itemsize, &from_format) &&
      numpy_struct_read(value, &t, &strides, &readonly)) {
    ok = t.data == view.buf && t.ndim == view.ndim && readonly == view.readonly &&
         t.dtype.code == from_format.code && t.dtype.bits == from_format.bits;
    for (int i = 0; ok && i < view.ndim; ++i) {
      ok = ((Py_ssize_t*)t.shape)[i] == view.shape[i] && strides[i] == view.strides[i];
    }
  }
  PyBuffer_Release(&view);
  return ok;
}

/* The struct path: a view tensor over the array. 1 done, 0 not expressible (caller tries the
 * next way), -1 error. */
static int import_numpy_struct(PyObject* value, TVMFFIObjectHandle* out, int* read_only) {
  DLTensor t;
  Py_ssize_t* byte_strides;
  if (!numpy_struct_read(value, &t, &byte_strides, read_only)) return 0;
  return core_view_tensor_from_strided(value, t.data, t.dtype, t.ndim, (const Py_ssize_t*)t.shape,
                                       byte_strides, *read_only, out);
}

/* Exact numpy.ndarray -> tensor without Python calls: 1 done, 0 use __dlpack__, -1 error. */
static int import_numpy(PyObject* value, int32_t alignment, int32_t contiguous,
                        TVMFFIObjectHandle* out, int* read_only) {
  if (CORE_UNLIKELY(g_numpy_struct_ok < 0)) g_numpy_struct_ok = numpy_struct_matches(value);
  /* Alignment and contiguity requirements are checked by the runtime's import. */
  if (g_numpy_struct_ok > 0 && alignment == 0 && !contiguous) {
    int done = import_numpy_struct(value, out, read_only);
    if (done != 0) return done;
  }
  return import_numpy_buffer(value, alignment, contiguous, out, read_only);
}

/* Builds a tensor over the array's buffer. 1: done; 0: not expressible this way (the caller
 * uses __dlpack__); -1: error with exception. */
static int import_numpy_buffer(PyObject* value, int32_t alignment, int32_t contiguous,
                               TVMFFIObjectHandle* out, int* read_only) {
  Py_buffer view;
  if (PyObject_GetBuffer(value, &view, PyBUF_RECORDS_RO) != 0) {
    PyErr_Clear(); /* e.g. unsupported dtypes: __dlpack__ gives the proper error */
    return 0;
  }
  DLDataType dtype;
  int ndim = view.ndim;
  if (!dtype_from_format(view.format, view.itemsize, &dtype) || ndim < 0 || ndim > 64) {
    PyBuffer_Release(&view);
    return 0;
  }
  BufferTensor* bt =
      (BufferTensor*)malloc(sizeof(BufferTensor) + 2 * (size_t)ndim * sizeof(int64_t));
  if (bt == NULL) {
    PyBuffer_Release(&view);
    PyErr_NoMemory();
    return -1;
  }
  int64_t* shape = bt->dims;
  int64_t* strides = bt->dims + ndim;
  for (int i = 0; i < ndim; ++i) {
    shape[i] = view.shape[i];
    Py_ssize_t s = view.strides != NULL ? view.strides[i] : 0;
    if (view.strides != NULL && s % view.itemsize != 0) { /* not a whole number of elements */
      free(bt);
      PyBuffer_Release(&view);
      return 0;
    }
    strides[i] = s / view.itemsize;
  }
  if (view.strides == NULL) { /* compact row-major */
    int64_t stride = 1;
    for (int i = ndim - 1; i >= 0; --i) {
      strides[i] = stride;
      stride *= shape[i];
    }
  }
  bt->mt.version.major = DLPACK_MAJOR_VERSION;
  bt->mt.version.minor = DLPACK_MINOR_VERSION;
  bt->mt.manager_ctx = NULL;
  bt->mt.deleter = buffer_tensor_deleter;
  bt->mt.flags = view.readonly ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  *read_only = view.readonly != 0;
  bt->mt.dl_tensor.data = view.buf;
  bt->mt.dl_tensor.device.device_type = kDLCPU;
  bt->mt.dl_tensor.device.device_id = 0;
  bt->mt.dl_tensor.ndim = ndim;
  bt->mt.dl_tensor.dtype = dtype;
  bt->mt.dl_tensor.shape = shape;
  bt->mt.dl_tensor.strides = strides;
  bt->mt.dl_tensor.byte_offset = 0;
  bt->view = view; /* the view's internal pointers do not point into itself */
  int rc = TVMFFITensorFromDLPackVersioned(&bt->mt, alignment, contiguous, out);
  if (rc != 0) {
    PyBuffer_Release(&bt->view);
    free(bt);
    core_raise_from_rc(rc);
    return -1;
  }
  return 1;
}

/* Calls value.__dlpack__(max_version=(1, 3)), falling back on value.__dlpack__() for producers
 * that predate max_version (they raise TypeError on the keyword). Method calls avoid making a
 * bound method per call. */
static PyObject* call_dlpack(PyObject* value) {
  PyObject* args[3] = {NULL, value, g_max_version};
  PyObject* capsule = PyObject_VectorcallMethod(g_str_dlpack, args + 1,
                                                1 | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                                g_kwnames_max_version);
  if (capsule == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
    PyErr_Clear();
    capsule = PyObject_CallMethodNoArgs(value, g_str_dlpack);
  }
  return capsule;
}

/* Converts any DLPack producer (classified by `entry`) into an owned tensor handle. Returns 0,
 * or -1 with exception; with `not_tensor` non-NULL, a value without __dlpack__ sets
 * *not_tensor = 1 and returns 0. *api_used: the exchange API that described it, if any.
 * *read_only: whether the producer marked the memory read-only. */
static int import_tensor(const CoreDispatchEntry* entry, PyObject* value, int32_t alignment,
                         int32_t contiguous, TVMFFIObjectHandle* out, int* not_tensor,
                         const DLPackExchangeAPI** api_used, int* read_only) {
  PyTypeObject* type = Py_TYPE(value);
  *read_only = 0;
  if (entry->kind == kCoreArgNumpy) {
    int done = import_numpy(value, alignment, contiguous, out, read_only);
    if (done != 0) return done > 0 ? 0 : -1;
  }
  const DLPackExchangeAPI* api = entry->api;
  if (api != NULL && api->dltensor_from_py_object_no_sync != NULL && alignment == 0 &&
      !contiguous) {
    /* A non-owning description of the tensor, made into a view that holds the tensor itself:
     * no managed tensor is allocated on either side. */
    if (core_view_tensor_from_exchange(value, api->dltensor_from_py_object_no_sync, out) != 0) {
      return -1;
    }
    if (api_used != NULL) *api_used = api;
    return 0;
  }
  if (api != NULL) {
    DLManagedTensorVersioned* mt = NULL;
    if (api->managed_tensor_from_py_object_no_sync(value, &mt) != 0 || mt == NULL) {
      if (!PyErr_Occurred()) {
        PyErr_Format(PyExc_RuntimeError, "`%s` exchange API failed to export a tensor",
                     type->tp_name);
      }
      return -1;
    }
    *read_only = (mt->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
    int rc = TVMFFITensorFromDLPackVersioned(mt, alignment, contiguous, out);
    if (rc != 0) {
      if (mt->deleter != NULL) mt->deleter(mt);
      core_raise_from_rc(rc);
      return -1;
    }
    if (api_used != NULL) *api_used = api;
    return 0;
  }
  if (not_tensor == NULL && PyCapsule_CheckExact(value)) {
    /* A capsule a producer already made (torch.utils.dlpack.to_dlpack(t)): from_dlpack
     * consumes it, as the reference does. */
    const char* name = PyCapsule_GetName(value);
    if (name == NULL && PyErr_Occurred()) return -1;
    if (name == NULL ||
        (strcmp(name, CORE_CAPSULE_VERSIONED) != 0 && strcmp(name, CORE_CAPSULE_LEGACY) != 0)) {
      PyErr_Format(PyExc_ValueError,
                   "from_dlpack: the capsule is named '%s', expected 'dltensor' or "
                   "'dltensor_versioned' (a DLPack capsule can be consumed only once)",
                   name != NULL ? name : "");
      return -1;
    }
    return import_from_capsule(value, type, alignment, contiguous, out, read_only);
  }
  /* A type-level lookup (cached by CPython): dunder protocols live on the type. */
  if (_PyType_Lookup(type, g_str_dlpack) == NULL) {
    if (not_tensor != NULL) {
      *not_tensor = 1;
      return 0;
    }
    PyErr_Format(PyExc_TypeError,
                 "from_dlpack expects an object supporting the DLPack protocol (__dlpack__) or "
                 "a DLPack capsule, got `%s`",
                 type->tp_name);
    return -1;
  }
  PyObject* capsule = call_dlpack(value);
  if (capsule == NULL) return -1;
  int rc = import_from_capsule(capsule, type, alignment, contiguous, out, read_only);
  Py_DECREF(capsule);
  return rc;
}

/* One optional int argument of from_dlpack (bools and ints, like the "i" and "p" formats). */
static int int_option(PyObject* value, const char* what, int* out) {
  long v = PyLong_AsLong(value);
  if (v == -1 && PyErr_Occurred()) {
    if (PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Format(PyExc_TypeError, "from_dlpack: %s must be an int, got `%s`", what,
                   Py_TYPE(value)->tp_name);
    }
    return -1;
  }
  if (v < INT32_MIN || v > INT32_MAX) {
    PyErr_Format(PyExc_OverflowError, "from_dlpack: %s=%ld is out of range", what, v);
    return -1;
  }
  *out = (int)v;
  return 0;
}

/* from_dlpack(ext_tensor, require_alignment=0, require_contiguous=False): vectorcall, since
 * it is called per tensor and keyword parsing through a tuple and a dict costs more than the
 * import itself. */
static PyObject* mod_from_dlpack(PyObject* self, PyObject* const* args, Py_ssize_t nargsf,
                                 PyObject* kwnames) {
  (void)self;
  if (PyVectorcall_NARGS(nargsf) == 1 && kwnames == NULL) {
    /* The common call, from_dlpack(torch_tensor), for a type known to describe itself. */
    PyTypeObject* type = Py_TYPE(args[0]);
    const CoreDispatchEntry* entry = core_dispatch_slot(type);
    if (entry->type == type && entry->kind == kCoreArgTensorView &&
        entry->version_tag == type->tp_version_tag && core_type_tag_valid(type)) {
      TVMFFIObjectHandle handle;
      if (view_of(entry, args[0], &handle) != 0) return NULL;
      return core_tensor_wrap(handle);
    }
  }
  static const char* const names[] = {"ext_tensor", "require_alignment", "require_contiguous"};
  PyObject* slots[3];
  if (core_bind_fastcall("from_dlpack", names, 3, 1, args, PyVectorcall_NARGS(nargsf), kwnames,
                         slots) != 0) {
    return NULL;
  }
  int alignment = 0, contiguous = 0;
  if (slots[1] != NULL && int_option(slots[1], "require_alignment", &alignment) != 0) {
    return NULL;
  }
  if (slots[2] != NULL) {
    contiguous = PyObject_IsTrue(slots[2]);
    if (contiguous < 0) return NULL;
  }
  if (alignment < 0) {
    PyErr_Format(PyExc_ValueError, "require_alignment must be >= 0, got %d", alignment);
    return NULL;
  }
  CoreDispatchEntry scratch;
  const CoreDispatchEntry* entry = core_dispatch_lookup(Py_TYPE(slots[0]), &scratch);
  if (entry == NULL) return NULL;
  TVMFFIObjectHandle handle = NULL;
  int read_only; /* from_dlpack keeps read-only memory read-only: its export flags it */
  if (import_tensor(entry, slots[0], alignment, contiguous, &handle, NULL, NULL, &read_only) != 0) {
    return NULL;
  }
  return core_tensor_wrap(handle);
}

/* ---- tensor arguments ---- */

/* Hands the new argument tensor to the call: its framework (allocator, stream, results) when
 * it came through an exchange API, and its release after the call. */
static int pass_tensor_arg(TVMFFIObjectHandle handle, const DLPackExchangeAPI* api,
                           TVMFFIAny* out, CoreCallContext* ctx) {
  if (api != NULL) {
    core_call_context_note_framework(ctx, api, TVMFFITensorGetDLTensorPtr(handle)->device);
  }
  /* The temporary tensor (and through it the producer) is released after the call. */
  if (core_call_context_keep_handle(ctx, handle) != 0) return -1;
  out->type_index = kTVMFFITensor;
  out->zero_padding = 0;
  out->v_int64 = 0;
  out->v_obj = (TVMFFIObject*)handle;
  return 0;
}

/* NumPy arrays and DLPack producers in general; a type that turns out to have no __dlpack__
 * after all (an exchange API of unknown layout) becomes an opaque object. */
static int convert_tensor(const CoreDispatchEntry* entry, PyObject* value, TVMFFIAny* out,
                          CoreCallContext* ctx) {
  TVMFFIObjectHandle handle = NULL;
  int not_tensor = 0, read_only = 0;
  const DLPackExchangeAPI* api = NULL;
  if (import_tensor(entry, value, 0, 0, &handle, &not_tensor, &api, &read_only) != 0) return -1;
  if (not_tensor) return core_convert_opaque(value, out, ctx);
  if (CORE_UNLIKELY(read_only)) {
    /* A kernel may write to its arguments: refuse rather than hand out immutable memory. */
    TVMFFIObjectDecRef(handle);
    core_raise_arg_error(PyExc_BufferError, &ctx->site,
                         "`%s` holds read-only memory, which a kernel must not receive (it may "
                         "write to its arguments); pass a writable copy instead, e.g. `x.copy()`",
                         Py_TYPE(value)->tp_name);
    return -1;
  }
  return pass_tensor_arg(handle, api, out, ctx);
}

/* A type whose exchange API describes its instances in place (torch.Tensor): the view, its
 * block and the bookkeeping are one straight path per argument. */
static __attribute__((flatten)) int convert_exchange_view(const CoreDispatchEntry* entry,
                                                          PyObject* value, TVMFFIAny* out,
                                                          CoreCallContext* ctx) {
  TVMFFIObjectHandle handle;
  if (view_of(entry, value, &handle) != 0) return -1;
  return pass_tensor_arg(handle, entry->api, out, ctx);
}

static PyMethodDef tensor_import_methods[] = {
    {"from_dlpack", (PyCFunction)(void (*)(void))mod_from_dlpack, METH_FASTCALL | METH_KEYWORDS,
     "from_dlpack($module, /, ext_tensor, require_alignment=0, require_contiguous=False)\n"
     "--\n"
     "\n"
     "Imports a DLPack producer as a Tensor sharing its memory.\n"
     "\n"
     "Parameters\n"
     "----------\n"
     "ext_tensor : object\n"
     "    Anything with ``__dlpack__``/``__dlpack_device__`` (NumPy, PyTorch, JAX, a Tensor).\n"
     "require_alignment : int\n"
     "    Required alignment of the data pointer in bytes; 0 accepts any.\n"
     "require_contiguous : bool\n"
     "    Refuse tensors that are not row-major contiguous.\n"
     "\n"
     "Returns\n"
     "-------\n"
     "Tensor\n"
     "    A view of the producer's memory; the producer stays alive as long as the view.\n"
     "\n"
     "Raises\n"
     "------\n"
     "TypeError\n"
     "    ``ext_tensor`` does not speak DLPack.\n"
     "RuntimeError\n"
     "    The alignment or contiguity requirement is not met.\n"
     "\n"
     "Examples\n"
     "--------\n"
     ">>> t = tvm_ffi.from_dlpack(numpy.arange(6, dtype=\"float32\").reshape(2, 3))\n"
     ">>> t.shape, t.dtype, t.device\n"
     "((2, 3), dtype('float32'), device(type='cpu', index=0))"},
    {NULL, NULL, 0, NULL},
};

int core_tensor_import_init(PyObject* module) {
  g_str_dlpack = PyUnicode_InternFromString("__dlpack__");
  g_kwnames_max_version = Py_BuildValue("(s)", "max_version");
  g_max_version = Py_BuildValue("(ii)", DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
  if (g_str_dlpack == NULL || g_kwnames_max_version == NULL || g_max_version == NULL) return -1;
  core_dispatch_register(kCoreArgNumpy, convert_tensor);
  core_dispatch_register(kCoreArgTensor, convert_tensor);
  core_dispatch_register(kCoreArgTensorView, convert_exchange_view);
  return PyModule_AddFunctions(module, tensor_import_methods);
}
