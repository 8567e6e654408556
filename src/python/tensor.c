/*
 * tensor.c -- tvm_ffi Tensor: the C type over ffi.Tensor handles, its export as DLPack
 * capsules, and tensor results handed back to a framework through its exchange API. Foreign
 * tensors come in through tensor_import.c.
 */
#include "tensor.h"

#include <stdlib.h>

#include "device.h"
#include "dtype.h"
#include "error.h"
#include "fastcall_args.h"
#include "object.h"
#include "shape.h"
#include "tensor_copy.h"
#include "tensor_view.h"
#include "type_table.h"

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

PyObject* core_tensor_wrap(TVMFFIObjectHandle handle) {
  PyTypeObject* cls = core_class_for_index(kTVMFFITensor);
  if (cls == NULL) {
    TVMFFIObjectDecRef(handle);
    return NULL;
  }
  return core_object_new_of_class(cls, handle);
}

PyObject* core_tensor_result_to_framework(TVMFFIAny* owned, const DLPackExchangeAPI* api) {
  TVMFFIObjectHandle handle = owned->v_obj;
  owned->type_index = kTVMFFINone;
  owned->v_obj = NULL;
  if (api->managed_tensor_to_py_object_no_sync == NULL) return core_tensor_wrap(handle);
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
  if (!PyCapsule_IsValid(capsule, CORE_CAPSULE_LEGACY)) return;
  DLManagedTensor* mt = PyCapsule_GetPointer(capsule, CORE_CAPSULE_LEGACY);
  if (mt != NULL && mt->deleter != NULL) mt->deleter(mt);
}

static void versioned_capsule_destructor(PyObject* capsule) {
  if (!PyCapsule_IsValid(capsule, CORE_CAPSULE_VERSIONED)) return;
  DLManagedTensorVersioned* mt = PyCapsule_GetPointer(capsule, CORE_CAPSULE_VERSIONED);
  if (mt != NULL && mt->deleter != NULL) mt->deleter(mt);
}

/* A versioned export of the tensor, flagged read-only when its memory is. */
/* A capsule owning `mt` (freed by its deleter if the capsule cannot be made). */
static PyObject* legacy_capsule_of(DLManagedTensor* mt) {
  PyObject* capsule = PyCapsule_New(mt, CORE_CAPSULE_LEGACY, legacy_capsule_destructor);
  if (capsule == NULL) mt->deleter(mt);
  return capsule;
}

static PyObject* versioned_capsule_of(DLManagedTensorVersioned* mt) {
  PyObject* capsule = PyCapsule_New(mt, CORE_CAPSULE_VERSIONED, versioned_capsule_destructor);
  if (capsule == NULL) mt->deleter(mt);
  return capsule;
}

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
  return legacy_capsule_of(mt);
}

static PyObject* make_versioned_capsule(PyObject* self) {
  DLManagedTensorVersioned* mt = NULL;
  if (export_versioned(self, &mt) != 0) return core_raise_from_rc(-1);
  return versioned_capsule_of(mt);
}

/* __dlpack__(copy=True): a capsule of a fresh copy no one else holds (tensor_copy.c). */
static PyObject* make_copy_capsule(const DLTensor* src, int versioned) {
  if (versioned) {
    DLManagedTensorVersioned* mt = core_tensor_copy_versioned(src);
    return mt != NULL ? versioned_capsule_of(mt) : NULL;
  }
  DLManagedTensor* mt = core_tensor_copy_legacy(src);
  return mt != NULL ? legacy_capsule_of(mt) : NULL;
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
  /* Built directly: every from_dlpack of every consumer asks, and Py_BuildValue's format
   * parsing costs more than the tuple. */
  PyObject* pair = PyTuple_New(2);
  if (pair == NULL) return NULL;
  PyObject* type = PyLong_FromLong((long)dev.device_type);
  PyObject* id = type != NULL ? PyLong_FromLong((long)dev.device_id) : NULL;
  if (id == NULL) {
    Py_XDECREF(type);
    Py_DECREF(pair);
    return NULL;
  }
  PyTuple_SET_ITEM(pair, 0, type);
  PyTuple_SET_ITEM(pair, 1, id);
  return pair;
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

/* The keywords of __dlpack__, interned at start-up: consumers (NumPy, torch) pass them by name
 * on every import, and a vectorcall with a by-identity match costs a fraction of
 * PyArg_ParseTupleAndKeywords. */
enum { kKwStream, kKwMaxVersion, kKwDlDevice, kKwCopy, kNumDLPackKw };
static const char* const kDLPackKwNames[kNumDLPackKw] = {"stream", "max_version", "dl_device",
                                                         "copy"};
static PyObject* g_dlpack_kw[kNumDLPackKw];

static int dlpack_kw_index(PyObject* name) {
  for (int i = 0; i < kNumDLPackKw; ++i) {
    if (name == g_dlpack_kw[i]) return i;
  }
  for (int i = 0; i < kNumDLPackKw; ++i) { /* a name that was not interned */
    if (PyUnicode_Check(name) && PyUnicode_CompareWithASCIIString(name, kDLPackKwNames[i]) == 0) {
      return i;
    }
  }
  return -1;
}

/* __dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None): copy=True copies a
 * CPU tensor (tensor_copy.c); no cross-device export; the stream is accepted and ignored (no
 * synchronization is needed for the tensors this package hands out: the producer's stream owns
 * the data). */
static PyObject* tensor_dlpack(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                               PyObject* kwnames) {
  if (nargs != 0) {
    PyErr_Format(PyExc_TypeError, "__dlpack__() takes no positional arguments (%zd given)",
                 nargs);
    return NULL;
  }
  PyObject* values[kNumDLPackKw] = {Py_None, Py_None, Py_None, Py_None};
  Py_ssize_t num_kw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t i = 0; i < num_kw; ++i) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, i);
    int index = dlpack_kw_index(name);
    if (index < 0) {
      PyErr_Format(PyExc_TypeError, "__dlpack__() got an unexpected keyword argument '%S'", name);
      return NULL;
    }
    values[index] = args[i];
  }
  PyObject *max_version = values[kKwMaxVersion], *dl_device = values[kKwDlDevice];
  PyObject* copy = values[kKwCopy];
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
  int want_copy = copy != Py_None ? PyObject_IsTrue(copy) : 0;
  if (want_copy < 0) return NULL;
  int versioned = 0;
  if (max_version != Py_None) {
    long major, minor;
    if (int_pair(max_version, "max_version", &major, &minor) != 0) return NULL;
    versioned = major >= 1;
  }
  if (want_copy) return make_copy_capsule(tensor_of(self), versioned);
  return versioned ? make_versioned_capsule(self) : make_legacy_capsule(self);
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

static PyObject* tensor_size(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                             PyObject* kwnames) {
  PyObject* arg;
  if (core_bind_one_fastcall("size", "idx", args, nargs, kwnames, &arg) != 0) return NULL;
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
    return PyUnicode_FromFormat("%s(chandle=None)", _PyType_Name(Py_TYPE(self))); /* as Object's */
  }
  DLTensor* t = tensor_of(self);
  PyObject* dtype = tensor_get_dtype(self, NULL);
  if (dtype == NULL && PyErr_ExceptionMatches(PyExc_ValueError)) {
    /* A type code without a name (complex): show the raw fields rather than fail. */
    PyErr_Clear();
    dtype = PyUnicode_FromFormat("(code=%d, bits=%d, lanes=%d)", (int)t->dtype.code,
                                 (int)t->dtype.bits, (int)t->dtype.lanes);
  }
  PyObject* device = dtype != NULL ? tensor_get_device(self, NULL) : NULL;
  /* The runtime's printed form of a tensor (ffi.ReprPrint), as the reference shows it:
   * float32[3, 4]@cpu:0 */
  PyObject* separator = device != NULL ? PyUnicode_FromString(", ") : NULL;
  PyObject* dims = NULL;
  if (separator != NULL) {
    PyObject* texts = PyTuple_New(t->ndim);
    for (int i = 0; texts != NULL && i < t->ndim; ++i) {
      PyObject* text = PyUnicode_FromFormat("%lld", (long long)t->shape[i]);
      if (text == NULL) Py_CLEAR(texts);
      else PyTuple_SET_ITEM(texts, i, text);
    }
    dims = texts != NULL ? PyUnicode_Join(separator, texts) : NULL;
    Py_XDECREF(texts);
  }
  PyObject* out = dims != NULL ? PyUnicode_FromFormat("%S[%U]@%S", dtype, dims, device) : NULL;
  Py_XDECREF(separator);
  Py_XDECREF(dims);
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
    {"data_ptr", tensor_data_ptr, METH_NOARGS,
     "data_ptr($self, /)\n"
     "--\n"
     "\n"
     "Return the address of the tensor's data.\n"
     "\n"
     "Returns\n"
     "-------\n"
     "int\n"
     "    The ``DLTensor.data`` pointer (``byte_offset`` is not added)."},
    {"numel", tensor_numel, METH_NOARGS,
     "numel($self, /)\n"
     "--\n"
     "\n"
     "Count the tensor's elements.\n"
     "\n"
     "Returns\n"
     "-------\n"
     "int\n"
     "    The product of the shape (1 for a 0-d tensor).\n"
     "\n"
     "Examples\n"
     "--------\n"
     ">>> tvm_ffi.from_dlpack(np.zeros((2, 3), dtype=\"float32\")).numel()\n"
     "6"},
    {"size", (PyCFunction)(void (*)(void))tensor_size, METH_FASTCALL | METH_KEYWORDS,
     "size($self, idx)\n"
     "--\n"
     "\n"
     "Return the extent of one dimension.\n"
     "\n"
     "Parameters\n"
     "----------\n"
     "idx : int\n"
     "    The dimension; negative values count from the end.\n"
     "\n"
     "Returns\n"
     "-------\n"
     "int\n"
     "    The number of elements along that dimension.\n"
     "\n"
     "Raises\n"
     "------\n"
     "IndexError\n"
     "    When ``idx`` is out of range.\n"
     "\n"
     "Examples\n"
     "--------\n"
     ">>> tvm_ffi.from_dlpack(np.zeros((2, 3), dtype=\"float32\")).size(-1)\n"
     "3"},
    {"is_contiguous", tensor_is_contiguous, METH_NOARGS,
     "is_contiguous($self, /)\n"
     "--\n"
     "\n"
     "Tell whether the elements are laid out compactly in row-major order.\n"
     "\n"
     "Returns\n"
     "-------\n"
     "bool\n"
     "    True when the strides are those of a compact row-major tensor.\n"
     "\n"
     "Examples\n"
     "--------\n"
     ">>> tvm_ffi.from_dlpack(np.zeros((2, 3), dtype=\"float32\")).is_contiguous()\n"
     "True"},
    {"_to_dlpack", tensor_to_dlpack, METH_NOARGS, "A legacy 'dltensor' capsule."},
    {"_to_dlpack_versioned", tensor_to_dlpack_versioned, METH_NOARGS,
     "A 'dltensor_versioned' capsule."},
    {"__dlpack_device__", tensor_dlpack_device, METH_NOARGS, "(device_type, device_id)."},
    {"__dlpack__", (PyCFunction)(void (*)(void))tensor_dlpack, METH_FASTCALL | METH_KEYWORDS,
     "__dlpack__($self, /, *, stream=None, max_version=None, dl_device=None, copy=None)\n--\n\n"
     "Exports the tensor as a DLPack capsule."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject CoreTensor_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.Tensor",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Tensor()\n"
              "--\n"
              "\n"
              "An n-dimensional array (``ffi.Tensor``) that speaks DLPack.\n"
              "\n"
              "Made by :func:`tvm_ffi.from_dlpack` or returned by FFI functions; exported to other frameworks\n"
              "with ``__dlpack__``.\n"
              "\n"
              "Examples\n"
              "--------\n"
              ">>> t = tvm_ffi.from_dlpack(numpy.zeros((2, 3), dtype=\"int32\"))\n"
              ">>> t.ndim, t.numel(), t.strides, t.is_contiguous()\n"
              "(2, 6, (3, 1), True)\n"
              ">>> numpy.from_dlpack(t).shape\n"
              "(2, 3)",
    .tp_repr = tensor_repr,
    .tp_methods = tensor_methods,
    .tp_getset = tensor_getset,
};

int core_tensor_init(PyObject* module) {
  for (int i = 0; i < kNumDLPackKw; ++i) {
    g_dlpack_kw[i] = PyUnicode_InternFromString(kDLPackKwNames[i]);
    if (g_dlpack_kw[i] == NULL) return -1;
  }
  CoreTensor_Type.tp_base = &CoreObject_Type;
  if (PyType_Ready(&CoreTensor_Type) < 0 || core_type_declare_empty_slots(&CoreTensor_Type) != 0) {
    return -1;
  }
  Py_INCREF(&CoreTensor_Type);
  if (PyModule_AddObject(module, "Tensor", (PyObject*)&CoreTensor_Type) < 0) {
    Py_DECREF(&CoreTensor_Type);
    return -1;
  }
  return core_tensor_view_init(module);
}
