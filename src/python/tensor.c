/*
 * tensor.c -- tvm_ffi Tensor: the C type over ffi.Tensor handles, DLPack capsules in both
 * directions, from_dlpack, and the argument hook that turns DLPack producers into tensors.
 *
 * Import order for a foreign tensor: a C exchange API published by the producer's type
 * (__dlpack_c_exchange_api__, looked up once per type), else __dlpack__(max_version=(1, 3))
 * (versioned capsule), else __dlpack__() when the producer rejects max_version with TypeError.
 * A capsule is renamed "used_..." only after the runtime took ownership, so on any failure the
 * capsule's own destructor still frees the producer's tensor.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"

static const char kCapsuleLegacy[] = "dltensor";
static const char kCapsuleVersioned[] = "dltensor_versioned";
static const char kCapsuleLegacyUsed[] = "used_dltensor";
static const char kCapsuleVersionedUsed[] = "used_dltensor_versioned";

static PyObject* g_str_dlpack = NULL;        /* "__dlpack__" */
static PyObject* g_str_exchange_api = NULL;  /* "__dlpack_c_exchange_api__" */
static PyObject* g_kwnames_max_version = NULL; /* ("max_version",) */
static PyObject* g_max_version = NULL;         /* (1, 3) */

static inline DLTensor* tensor_of(PyObject* self) {
  return TVMFFITensorGetDLTensorPtr(((CoreObject*)self)->chandle);
}

/* Methods and getters need a live handle; a bare Tensor.__new__ instance has none. */
static int check_handle(PyObject* self) {
  if (((CoreObject*)self)->chandle != NULL) return 0;
  PyErr_Format(PyExc_ValueError, "this `%s` has no FFI handle (NULL)", Py_TYPE(self)->tp_name);
  return -1;
}

static PyObject* int64_tuple(const int64_t* values, int32_t n) {
  return core_int64_tuple(&PyTuple_Type, values, n);
}

/* ---- exchange API lookup ---- */

/* The attribute lives in the type's dict, where _PyType_Lookup finds it through CPython's
 * attribute cache without raising when it is absent. Decoding the capsule is remembered per
 * attribute object (a handful in practice: one per framework), holding the attribute rather
 * than the type, so that producer classes made at run time can still die. */
#define EXCHANGE_CACHE_SIZE 8
typedef struct {
  PyObject* attr; /* strong reference */
  const DLPackExchangeAPI* api;
} ExchangeEntry;
static ExchangeEntry g_exchange_cache[EXCHANGE_CACHE_SIZE];
static int g_exchange_cache_size = 0;

/* The DLPackExchangeAPI* an attribute value publishes (capsule "dlpack_exchange_api" or int
 * address); NULL for a table of unknown layout. -1 with an exception when malformed. */
static int decode_exchange_api(PyTypeObject* type, PyObject* attr,
                               const DLPackExchangeAPI** out) {
  void* ptr = NULL;
  if (PyCapsule_CheckExact(attr)) {
    ptr = PyCapsule_GetPointer(attr, "dlpack_exchange_api");
  } else if (PyLong_Check(attr)) {
    ptr = PyLong_AsVoidPtr(attr);
  } else {
    PyErr_Format(PyExc_TypeError,
                 "`%s.__dlpack_c_exchange_api__` must be a PyCapsule or an int address, got `%s`",
                 type->tp_name, Py_TYPE(attr)->tp_name);
  }
  if (PyErr_Occurred()) return -1;
  const DLPackExchangeAPI* api = (const DLPackExchangeAPI*)ptr;
  if (api != NULL && (api->header.version.major != DLPACK_MAJOR_VERSION ||
                      api->managed_tensor_from_py_object_no_sync == NULL)) {
    api = NULL; /* unknown table layout: use the Python protocol instead */
  }
  *out = api;
  return 0;
}

/* *out: the exchange API `type` publishes, or NULL; -1 with an exception when malformed. */
static int exchange_api_of(PyTypeObject* type, const DLPackExchangeAPI** out) {
  *out = NULL;
  PyObject* attr = _PyType_Lookup(type, g_str_exchange_api); /* borrowed */
  if (attr == NULL) return 0;
  for (int i = 0; i < g_exchange_cache_size; ++i) {
    if (g_exchange_cache[i].attr == attr) {
      *out = g_exchange_cache[i].api;
      return 0;
    }
  }
  if (!PyCapsule_CheckExact(attr) && !PyLong_Check(attr)) {
    /* A descriptor: read it like any attribute, without caching. */
    PyObject* value = PyObject_GetAttr((PyObject*)type, g_str_exchange_api);
    if (value == NULL) return -1;
    int rc = decode_exchange_api(type, value, out);
    Py_DECREF(value);
    return rc;
  }
  if (decode_exchange_api(type, attr, out) != 0) return -1;
  if (g_exchange_cache_size < EXCHANGE_CACHE_SIZE) {
    Py_INCREF(attr);
    g_exchange_cache[g_exchange_cache_size].attr = attr;
    g_exchange_cache[g_exchange_cache_size].api = *out;
    ++g_exchange_cache_size;
  }
  return 0;
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
  if (name != NULL && strcmp(name, kCapsuleVersioned) == 0) {
    DLManagedTensorVersioned* mt = PyCapsule_GetPointer(capsule, kCapsuleVersioned);
    if (mt == NULL) return -1;
    if (mt->version.major != DLPACK_MAJOR_VERSION) {
      PyErr_Format(PyExc_BufferError, "unsupported DLPack version %u.%u from `%s` (expected %d.x)",
                   mt->version.major, mt->version.minor, producer->tp_name,
                   DLPACK_MAJOR_VERSION);
      return -1;
    }
    *read_only = (mt->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
    rc = TVMFFITensorFromDLPackVersioned(mt, alignment, contiguous, out);
    if (rc == 0 && PyCapsule_SetName(capsule, kCapsuleVersionedUsed) != 0) goto fail_owned;
  } else if (name != NULL && strcmp(name, kCapsuleLegacy) == 0) {
    DLManagedTensor* mt = PyCapsule_GetPointer(capsule, kCapsuleLegacy);
    if (mt == NULL) return -1;
    rc = TVMFFITensorFromDLPack(mt, alignment, contiguous, out);
    if (rc == 0 && PyCapsule_SetName(capsule, kCapsuleLegacyUsed) != 0) goto fail_owned;
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

/* numpy.ndarray, found by name the first time one shows up (numpy is never imported here). */
static PyTypeObject* g_numpy_type = NULL;

static int is_numpy_array(PyTypeObject* type) {
  if (type == g_numpy_type) return 1;
  /* The name is compared only until the first array shows up (cheap first-letter test). */
  if (g_numpy_type != NULL || type->tp_name[0] != 'n' ||
      strcmp(type->tp_name, "numpy.ndarray") != 0) {
    return 0;
  }
  Py_INCREF(type);
  g_numpy_type = type;
  return 1;
}

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
  BufferTensor* bt = (BufferTensor*)malloc(sizeof(BufferTensor) + 2 * (size_t)ndim * sizeof(int64_t));
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

/* ---- the exchange-API type memo (core.h) ---- */

CoreExchangeTypeMemo core_exchange_memo = {NULL, 0, NULL};

/* Remembers `type` as the one whose instances skip classification, when CPython has given it a
 * version tag (a type modified too often has none: then it keeps the slow path). */
static void exchange_memo_put(PyTypeObject* type, const DLPackExchangeAPI* api) {
  if (!core_type_tag_valid(type)) return;
  core_exchange_memo.type = type;
  core_exchange_memo.version_tag = type->tp_version_tag;
  core_exchange_memo.api = api;
}

void core_exchange_memo_clear(void) {
  core_exchange_memo.type = NULL;
  core_exchange_memo.version_tag = 0;
  core_exchange_memo.api = NULL;
}

/* A view of an instance of the memo's type, described by the remembered exchange API. */
static int view_of_memo_type(PyObject* value, TVMFFIObjectHandle* out) {
  return core_view_tensor_from_exchange(
      value, core_exchange_memo.api->dltensor_from_py_object_no_sync, out);
}

/* Converts any DLPack producer into an owned tensor handle. Returns 0, or -1 with exception;
 * with `not_tensor` non-NULL, a value without __dlpack__ sets *not_tensor = 1 and returns 0.
 * *read_only tells whether the producer marked the memory read-only. */
static int import_tensor(PyObject* value, int32_t alignment, int32_t contiguous,
                         TVMFFIObjectHandle* out, int* not_tensor,
                         const DLPackExchangeAPI** api_used, int* read_only) {
  PyTypeObject* type = Py_TYPE(value);
  *read_only = 0;
  if (is_numpy_array(type)) {
    int done = import_numpy(value, alignment, contiguous, out, read_only);
    if (done != 0) return done > 0 ? 0 : -1;
  }
  const DLPackExchangeAPI* api;
  if (exchange_api_of(type, &api) != 0) return -1;
  if (api != NULL && api->dltensor_from_py_object_no_sync != NULL && alignment == 0 &&
      !contiguous) {
    /* A non-owning description of the tensor, made into a view that holds the tensor itself:
     * no managed tensor is allocated on either side. */
    if (core_view_tensor_from_exchange(value, api->dltensor_from_py_object_no_sync, out) != 0) {
      return -1;
    }
    exchange_memo_put(type, api);
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
  /* A type-level lookup (cached by CPython): dunder protocols live on the type. */
  if (_PyType_Lookup(type, g_str_dlpack) == NULL) {
    if (not_tensor != NULL) {
      *not_tensor = 1;
      return 0;
    }
    PyErr_Format(PyExc_TypeError,
                 "from_dlpack expects an object supporting the DLPack protocol (__dlpack__), "
                 "got `%s`",
                 type->tp_name);
    return -1;
  }
  PyObject* capsule = call_dlpack(value);
  if (capsule == NULL) return -1;
  int rc = import_from_capsule(capsule, type, alignment, contiguous, out, read_only);
  Py_DECREF(capsule);
  return rc;
}

static PyObject* wrap_tensor(TVMFFIObjectHandle handle) {
  PyTypeObject* cls = core_class_for_index(kTVMFFITensor);
  if (cls == NULL) {
    TVMFFIObjectDecRef(handle);
    return NULL;
  }
  return core_object_new_of_class(cls, handle);
}

/* from_dlpack(ext_tensor, require_alignment=0, require_contiguous=False) */
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
  if (PyVectorcall_NARGS(nargsf) == 1 && kwnames == NULL &&
      core_is_exchange_memo_type(Py_TYPE(args[0]))) {
    /* The common call, from_dlpack(torch_tensor), for a type known to describe itself. */
    TVMFFIObjectHandle handle;
    if (view_of_memo_type(args[0], &handle) != 0) return NULL;
    return wrap_tensor(handle);
  }
  static const char* const names[] = {"ext_tensor", "require_alignment", "require_contiguous"};
  PyObject* slots[3] = {NULL, NULL, NULL};
  Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  if (nargs > 3) {
    PyErr_Format(PyExc_TypeError, "from_dlpack() takes at most 3 arguments (%zd given)", nargs);
    return NULL;
  }
  for (Py_ssize_t i = 0; i < nargs; ++i) slots[i] = args[i];
  Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < nkw; ++k) {
    PyObject* key = PyTuple_GET_ITEM(kwnames, k);
    int which = -1;
    for (int j = 0; j < 3; ++j) {
      if (PyUnicode_CompareWithASCIIString(key, names[j]) == 0) which = j;
    }
    if (which < 0) {
      PyErr_Format(PyExc_TypeError, "from_dlpack() got an unexpected keyword argument '%U'",
                   key);
      return NULL;
    }
    if (slots[which] != NULL) {
      PyErr_Format(PyExc_TypeError, "from_dlpack() got multiple values for argument '%s'",
                   names[which]);
      return NULL;
    }
    slots[which] = args[nargs + k];
  }
  if (slots[0] == NULL) {
    PyErr_SetString(PyExc_TypeError,
                    "from_dlpack() missing required argument 'ext_tensor' (pos 1)");
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
  TVMFFIObjectHandle handle = NULL;
  int read_only; /* from_dlpack keeps read-only memory read-only (export flags it) */
  if (import_tensor(slots[0], alignment, contiguous, &handle, NULL, NULL, &read_only) != 0) {
    return NULL;
  }
  return wrap_tensor(handle);
}

/* ---- argument hook ---- */

/* Hands the new argument tensor to the call: its framework (allocator, stream, results) when it
 * came through an exchange API, and its release after the call. Returns 1, or -1 on error. */
static int pass_tensor_arg(TVMFFIObjectHandle handle, const DLPackExchangeAPI* api,
                           TVMFFIAny* out, CoreTemps* temps) {
  if (api != NULL) {
    if (temps->fw.api == NULL) temps->fw.api = api;
    DLDevice dev = TVMFFITensorGetDLTensorPtr(handle)->device;
    if (temps->fw.stream_api == NULL && api->current_work_stream != NULL &&
        dev.device_type != kDLCPU) {
      temps->fw.stream_api = api;
      temps->fw.stream_device = dev;
    }
  }
  /* The temporary tensor (and through it the producer) is released after the call. */
  if (core_temps_push_handle(temps, handle) != 0) return -1;
  out->type_index = kTVMFFITensor;
  out->zero_padding = 0;
  out->v_int64 = 0;
  out->v_obj = (TVMFFIObject*)handle;
  return 1;
}

int core_raise_read_only_arg(PyObject* value, const CoreArgSite* site) {
  core_raise_arg_error(PyExc_BufferError, site,
                       "`%s` holds read-only memory, which a kernel must not receive (it may "
                       "write to its arguments); pass a writable copy instead, e.g. `x.copy()`",
                       Py_TYPE(value)->tp_name);
  return -1;
}

static int tensor_arg_hook(PyObject* value, TVMFFIAny* out, CoreTemps* temps) {
  TVMFFIObjectHandle handle = NULL;
  int not_tensor = 0, read_only = 0;
  const DLPackExchangeAPI* api = NULL;
  if (import_tensor(value, 0, 0, &handle, &not_tensor, &api, &read_only) != 0) return -1;
  if (not_tensor) return 0;
  if (read_only) {
    /* A kernel argument may be written: refuse rather than hand out immutable memory. */
    TVMFFIObjectDecRef(handle);
    return CORE_TENSOR_ARG_READ_ONLY;
  }
  return pass_tensor_arg(handle, api, out, temps);
}

/* Flattened: the view, its block and the bookkeeping are one straight path per argument. */
__attribute__((flatten)) int core_tensor_exchange_arg(PyObject* value, TVMFFIAny* out,
                                                      CoreTemps* temps) {
  TVMFFIObjectHandle handle;
  if (view_of_memo_type(value, &handle) != 0) return -1;
  return pass_tensor_arg(handle, core_exchange_memo.api, out, temps) > 0 ? 0 : -1;
}

/* ---- per-call framework context ---- */

void core_tensor_call_enter(const CoreTemps* temps, CoreTensorCallScope* scope) {
  const DLPackExchangeAPI* api = (const DLPackExchangeAPI*)temps->fw.api;
  scope->alloc_set = 0;
  scope->stream_set = 0;
  /* Failures here only mean the env keeps its defaults: the call itself still runs. */
  if (api->managed_tensor_allocator != NULL &&
      TVMFFIEnvSetDLPackManagedTensorAllocator(api->managed_tensor_allocator, 0,
                                               &scope->prev_alloc) == 0) {
    scope->alloc_set = 1;
  }
  const DLPackExchangeAPI* stream_api = (const DLPackExchangeAPI*)temps->fw.stream_api;
  if (stream_api != NULL) {
    DLDevice dev = temps->fw.stream_device;
    void* stream = NULL;
    if (stream_api->current_work_stream(dev.device_type, dev.device_id, &stream) == 0 &&
        TVMFFIEnvSetStream(dev.device_type, dev.device_id, stream, &scope->prev_stream) == 0) {
      scope->stream_set = 1;
    }
  }
  if (!scope->alloc_set || (stream_api != NULL && !scope->stream_set)) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (err != NULL) TVMFFIObjectDecRef(err);
    PyErr_Clear();
  }
}

void core_tensor_call_exit(const CoreTemps* temps, const CoreTensorCallScope* scope) {
  if (scope->alloc_set) TVMFFIEnvSetDLPackManagedTensorAllocator(scope->prev_alloc, 0, NULL);
  if (scope->stream_set) {
    DLDevice dev = temps->fw.stream_device;
    TVMFFIEnvSetStream(dev.device_type, dev.device_id, scope->prev_stream, NULL);
  }
}

PyObject* core_tensor_result_to_framework(TVMFFIAny* owned, const void* dlpack_api) {
  const DLPackExchangeAPI* api = (const DLPackExchangeAPI*)dlpack_api;
  TVMFFIObjectHandle handle = owned->v_obj;
  owned->type_index = kTVMFFINone;
  owned->v_obj = NULL;
  if (api->managed_tensor_to_py_object_no_sync == NULL) return wrap_tensor(handle);
  DLManagedTensorVersioned* mt = NULL;
  int rc = TVMFFITensorToDLPackVersioned(handle, &mt);
  TVMFFIObjectDecRef(handle); /* mt holds its own reference */
  if (rc != 0) return core_raise_from_rc(rc);
  void* obj = NULL;
  if (api->managed_tensor_to_py_object_no_sync(mt, &obj) != 0 || obj == NULL) {
    if (!PyErr_Occurred()) {
      PyErr_SetString(PyExc_RuntimeError,
                      "the framework's exchange API failed to wrap a tensor result");
    }
    return NULL;
  }
  return (PyObject*)obj;
}

/* ---- export: capsules ---- */

static void legacy_capsule_destructor(PyObject* capsule) {
  /* Renamed "used_dltensor" once a consumer took ownership: then it is not ours to free. */
  if (!PyCapsule_IsValid(capsule, kCapsuleLegacy)) return;
  DLManagedTensor* mt = PyCapsule_GetPointer(capsule, kCapsuleLegacy);
  if (mt != NULL && mt->deleter != NULL) mt->deleter(mt);
}

static void versioned_capsule_destructor(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, kCapsuleVersioned)) return;
  DLManagedTensorVersioned* mt = PyCapsule_GetPointer(capsule, kCapsuleVersioned);
  if (mt != NULL && mt->deleter != NULL) mt->deleter(mt);
}

/* A versioned export of the tensor, flagged read-only when its memory is. */
static int export_versioned(PyObject* self, DLManagedTensorVersioned** out) {
  TVMFFIObjectHandle handle = ((CoreObject*)self)->chandle;
  if (TVMFFITensorToDLPackVersioned(handle, out) != 0) return -1;
  (*out)->flags |= core_view_tensor_flags(handle);
  return 0;
}

static PyObject* make_legacy_capsule(PyObject* self) {
  /* The legacy struct cannot say "read-only": such memory is refused rather than handed out
   * as writable (as NumPy does). */
  DLManagedTensorVersioned* probe = NULL;
  if (export_versioned(self, &probe) != 0) return core_raise_from_rc(-1);
  int read_only = (probe->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
  probe->deleter(probe);
  if (read_only) {
    PyErr_SetString(PyExc_BufferError,
                    "cannot export read-only memory through the legacy DLPack protocol, which "
                    "cannot mark it read-only; ask for a versioned capsule "
                    "(__dlpack__(max_version=(1, 0)))");
    return NULL;
  }
  DLManagedTensor* mt = NULL;
  if (TVMFFITensorToDLPack(((CoreObject*)self)->chandle, &mt) != 0) return core_raise_from_rc(-1);
  PyObject* capsule = PyCapsule_New(mt, kCapsuleLegacy, legacy_capsule_destructor);
  if (capsule == NULL) mt->deleter(mt);
  return capsule;
}

static PyObject* make_versioned_capsule(PyObject* self) {
  DLManagedTensorVersioned* mt = NULL;
  if (export_versioned(self, &mt) != 0) return core_raise_from_rc(-1);
  PyObject* capsule = PyCapsule_New(mt, kCapsuleVersioned, versioned_capsule_destructor);
  if (capsule == NULL) mt->deleter(mt);
  return capsule;
}

static PyObject* tensor_to_dlpack(PyObject* self, PyObject* unused) {
  (void)unused;
  if (check_handle(self) != 0) return NULL;
  return make_legacy_capsule(self);
}

static PyObject* tensor_to_dlpack_versioned(PyObject* self, PyObject* unused) {
  (void)unused;
  if (check_handle(self) != 0) return NULL;
  return make_versioned_capsule(self);
}

static PyObject* tensor_dlpack_device(PyObject* self, PyObject* unused) {
  (void)unused;
  if (check_handle(self) != 0) return NULL;
  DLDevice dev = tensor_of(self)->device;
  return Py_BuildValue("(ii)", (int)dev.device_type, (int)dev.device_id);
}

/* Reads an optional (int, int) keyword of __dlpack__. */
static int int_pair(PyObject* obj, const char* what, long* a, long* b) {
  if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 2) {
    PyErr_Format(PyExc_TypeError, "__dlpack__: %s must be a tuple of two ints, got `%s`", what,
                 Py_TYPE(obj)->tp_name);
    return -1;
  }
  *a = PyLong_AsLong(PyTuple_GET_ITEM(obj, 0));
  if (*a == -1 && PyErr_Occurred()) return -1;
  *b = PyLong_AsLong(PyTuple_GET_ITEM(obj, 1));
  if (*b == -1 && PyErr_Occurred()) return -1;
  return 0;
}

/* __dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None): no copies and no
 * cross-device export; the stream is accepted and ignored (no synchronization is needed for the
 * tensors this package hands out: the producer's stream owns the data). */
static PyObject* tensor_dlpack(PyObject* self, PyObject* args, PyObject* kwargs) {
  static char* kwlist[] = {"stream", "max_version", "dl_device", "copy", NULL};
  PyObject *stream = Py_None, *max_version = Py_None, *dl_device = Py_None, *copy = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$OOOO:__dlpack__", kwlist, &stream,
                                   &max_version, &dl_device, &copy)) {
    return NULL;
  }
  if (check_handle(self) != 0) return NULL;
  DLDevice dev = tensor_of(self)->device;
  if (dl_device != Py_None) {
    long type, id;
    if (int_pair(dl_device, "dl_device", &type, &id) != 0) return NULL;
    if (type != dev.device_type || id != dev.device_id) {
      PyErr_Format(PyExc_BufferError,
                   "__dlpack__: cannot export to device (%ld, %ld), the tensor is on (%d, %d)",
                   type, id, (int)dev.device_type, (int)dev.device_id);
      return NULL;
    }
  }
  if (copy != Py_None) {
    int want_copy = PyObject_IsTrue(copy);
    if (want_copy < 0) return NULL;
    if (want_copy) {
      PyErr_SetString(PyExc_BufferError, "__dlpack__: copy=True is not supported");
      return NULL;
    }
  }
  if (max_version != Py_None) {
    long major, minor;
    if (int_pair(max_version, "max_version", &major, &minor) != 0) return NULL;
    if (major >= 1) return make_versioned_capsule(self);
  }
  return make_legacy_capsule(self);
}

/* ---- properties and methods ---- */

static PyObject* tensor_get_shape(PyObject* self, void* closure) {
  (void)closure;
  if (check_handle(self) != 0) return NULL;
  DLTensor* t = tensor_of(self);
  return core_shape_from_dims(t->shape, t->ndim);
}

static PyObject* tensor_get_strides(PyObject* self, void* closure) {
  (void)closure;
  if (check_handle(self) != 0) return NULL;
  DLTensor* t = tensor_of(self);
  if (t->strides != NULL || t->ndim == 0) return int64_tuple(t->strides, t->ndim);
  /* NULL strides mean compact row-major. */
  PyObject* tuple = PyTuple_New(t->ndim);
  if (tuple == NULL) return NULL;
  int64_t stride = 1;
  for (int32_t i = t->ndim - 1; i >= 0; --i) {
    PyObject* item = PyLong_FromLongLong(stride);
    if (item == NULL) {
      Py_DECREF(tuple);
      return NULL;
    }
    PyTuple_SET_ITEM(tuple, i, item);
    stride *= t->shape[i];
  }
  return tuple;
}

static PyObject* tensor_get_ndim(PyObject* self, void* closure) {
  (void)closure;
  if (check_handle(self) != 0) return NULL;
  return PyLong_FromLong(tensor_of(self)->ndim);
}

static PyObject* tensor_get_dtype(PyObject* self, void* closure) {
  (void)closure;
  if (check_handle(self) != 0) return NULL;
  return core_dtype_result(tensor_of(self)->dtype);
}

static PyObject* tensor_get_device(PyObject* self, void* closure) {
  (void)closure;
  if (check_handle(self) != 0) return NULL;
  return core_device_new(tensor_of(self)->device);
}

static PyObject* tensor_get_byte_offset(PyObject* self, void* closure) {
  (void)closure;
  if (check_handle(self) != 0) return NULL;
  return PyLong_FromUnsignedLongLong(tensor_of(self)->byte_offset);
}

static PyObject* tensor_data_ptr(PyObject* self, PyObject* unused) {
  (void)unused;
  if (check_handle(self) != 0) return NULL;
  return PyLong_FromVoidPtr(tensor_of(self)->data);
}

static PyObject* tensor_numel(PyObject* self, PyObject* unused) {
  (void)unused;
  if (check_handle(self) != 0) return NULL;
  DLTensor* t = tensor_of(self);
  int64_t n = 1;
  for (int32_t i = 0; i < t->ndim; ++i) n *= t->shape[i];
  return PyLong_FromLongLong(n);
}

static PyObject* tensor_size(PyObject* self, PyObject* arg) {
  if (check_handle(self) != 0) return NULL;
  DLTensor* t = tensor_of(self);
  long idx = PyLong_AsLong(arg);
  if (idx == -1 && PyErr_Occurred()) return NULL;
  long pos = idx < 0 ? idx + t->ndim : idx;
  if (pos < 0 || pos >= t->ndim) {
    PyErr_Format(PyExc_IndexError, "size: dimension %ld out of range for a %d-d tensor", idx,
                 (int)t->ndim);
    return NULL;
  }
  return PyLong_FromLongLong(t->shape[pos]);
}

/* Row-major compact, ignoring the strides of extent-1 dimensions (as DLPack consumers do). */
static PyObject* tensor_is_contiguous(PyObject* self, PyObject* unused) {
  (void)unused;
  if (check_handle(self) != 0) return NULL;
  DLTensor* t = tensor_of(self);
  if (t->strides == NULL) Py_RETURN_TRUE;
  for (int32_t i = 0; i < t->ndim; ++i) {
    if (t->shape[i] == 0) Py_RETURN_TRUE; /* no elements: any strides will do */
  }
  int64_t expected = 1;
  for (int32_t i = t->ndim - 1; i >= 0; --i) {
    if (t->shape[i] != 1 && t->strides[i] != expected) Py_RETURN_FALSE;
    expected *= t->shape[i];
  }
  Py_RETURN_TRUE;
}

static PyObject* tensor_repr(PyObject* self) {
  if (((CoreObject*)self)->chandle == NULL) {
    return PyUnicode_FromFormat("<%s with NULL handle>", Py_TYPE(self)->tp_name);
  }
  DLTensor* t = tensor_of(self);
  PyObject* shape = int64_tuple(t->shape, t->ndim);
  PyObject* dtype = shape != NULL ? tensor_get_dtype(self, NULL) : NULL;
  if (shape != NULL && dtype == NULL && PyErr_ExceptionMatches(PyExc_ValueError)) {
    /* A type code without a name (complex): show the raw fields rather than fail. */
    PyErr_Clear();
    dtype = PyUnicode_FromFormat("(code=%d, bits=%d, lanes=%d)", (int)t->dtype.code,
                                 (int)t->dtype.bits, (int)t->dtype.lanes);
  }
  PyObject* device = dtype != NULL ? tensor_get_device(self, NULL) : NULL;
  PyObject* out = device != NULL ? PyUnicode_FromFormat("<Tensor shape=%R dtype=%S device=%S>",
                                                        shape, dtype, device)
                                 : NULL;
  Py_XDECREF(shape);
  Py_XDECREF(dtype);
  Py_XDECREF(device);
  return out;
}

static PyGetSetDef tensor_getset[] = {
    {"shape", tensor_get_shape, NULL, "Extents, a tvm_ffi.Shape (a tuple of ints).", NULL},
    {"strides", tensor_get_strides, NULL, "Strides in elements, a tuple of ints.", NULL},
    {"ndim", tensor_get_ndim, NULL, "Number of dimensions.", NULL},
    {"dtype", tensor_get_dtype, NULL, "Element type (tvm_ffi.dtype).", NULL},
    {"device", tensor_get_device, NULL, "Device holding the data.", NULL},
    {"byte_offset", tensor_get_byte_offset, NULL, "Offset of the first element in bytes.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef tensor_methods[] = {
    {"data_ptr", tensor_data_ptr, METH_NOARGS, "The data pointer (without byte_offset) as int."},
    {"numel", tensor_numel, METH_NOARGS, "Number of elements."},
    {"size", tensor_size, METH_O, "Extent of one dimension (negative counts from the end)."},
    {"is_contiguous", tensor_is_contiguous, METH_NOARGS, "True when compact row-major."},
    {"_to_dlpack", tensor_to_dlpack, METH_NOARGS, "A legacy 'dltensor' capsule."},
    {"_to_dlpack_versioned", tensor_to_dlpack_versioned, METH_NOARGS,
     "A 'dltensor_versioned' capsule."},
    {"__dlpack_device__", tensor_dlpack_device, METH_NOARGS, "(device_type, device_id)."},
    {"__dlpack__", (PyCFunction)(void (*)(void))tensor_dlpack, METH_VARARGS | METH_KEYWORDS,
     "__dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None): a capsule."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject CoreTensor_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.Tensor",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "An n-dimensional array object (ffi.Tensor) that speaks DLPack.",
    .tp_repr = tensor_repr,
    .tp_methods = tensor_methods,
    .tp_getset = tensor_getset,
};

static PyMethodDef tensor_module_methods[] = {
    {"from_dlpack", (PyCFunction)(void (*)(void))mod_from_dlpack, METH_FASTCALL | METH_KEYWORDS,
     "from_dlpack(ext_tensor, require_alignment=0, require_contiguous=False) -> Tensor"},
    {NULL, NULL, 0, NULL},
};

int core_tensor_init(PyObject* module) {
  g_str_dlpack = PyUnicode_InternFromString("__dlpack__");
  g_str_exchange_api = PyUnicode_InternFromString("__dlpack_c_exchange_api__");
  g_kwnames_max_version = Py_BuildValue("(s)", "max_version");
  g_max_version = Py_BuildValue("(ii)", DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION);
  if (g_str_dlpack == NULL || g_str_exchange_api == NULL || g_kwnames_max_version == NULL ||
      g_max_version == NULL) {
    return -1;
  }
  CoreTensor_Type.tp_base = &CoreObject_Type;
  if (PyType_Ready(&CoreTensor_Type) < 0) return -1;
  Py_INCREF(&CoreTensor_Type);
  if (PyModule_AddObject(module, "Tensor", (PyObject*)&CoreTensor_Type) < 0) {
    Py_DECREF(&CoreTensor_Type);
    return -1;
  }
  if (PyModule_AddFunctions(module, tensor_module_methods) < 0) return -1;
  if (core_tensor_view_init(module) != 0) return -1;
  core_tensor_arg_hook = tensor_arg_hook;
  core_convert_clear_cache();
  return 0;
}
