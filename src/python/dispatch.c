/*
 * dispatch.c -- the per-type dispatch table: classification of a Python type into the kind of
 * conversion its values get, remembered per type version (see dispatch.h).
 */
#include "dispatch.h"

#include <string.h>

#include "device.h"
#include "dtype.h"
#include "object.h"
#include "state.h"
#include "string_types.h"

CoreDispatchEntry core_dispatch_table[CORE_DISPATCH_SIZE];
PyTypeObject* core_container_types[2] = {NULL, NULL};

int core_is_container_type(PyTypeObject* t) {
  return (core_container_types[0] != NULL && PyType_IsSubtype(t, core_container_types[0])) ||
         (core_container_types[1] != NULL && PyType_IsSubtype(t, core_container_types[1]));
}

static CoreArgConverter g_converters[kCoreArgNumKinds];
static PyObject* g_numbers_integral = NULL;
static PyObject* g_numbers_real = NULL;
static PyObject* g_str_exchange_api = NULL; /* "__dlpack_c_exchange_api__" */
/* "__c_dlpack_exchange_api__": the name PyTorch's addon (torch-c-dlpack-ext) and torch releases
 * before the attribute was renamed publish the same table under. */
static PyObject* g_str_legacy_exchange_api = NULL;
static PyObject* g_str_torch = NULL; /* "torch" */

static int type_has(PyTypeObject* type, const char* name) {
  PyObject* attr = PyObject_GetAttrString((PyObject*)type, name);
  if (attr == NULL) {
    PyErr_Clear();
    return 0;
  }
  Py_DECREF(attr);
  return 1;
}

static int is_subclass(PyTypeObject* type, PyObject* base) {
  if (base == NULL) return 0;
  int r = PyObject_IsSubclass((PyObject*)type, base);
  if (r < 0) PyErr_Clear();
  return r > 0;
}

/* True for NumPy's and PyTorch's dtype objects (NumPy 2 gives each dtype its own subclass). */
static int is_framework_dtype(PyTypeObject* t) {
  PyObject* mro = t->tp_mro;
  for (Py_ssize_t i = 0; mro != NULL && i < PyTuple_GET_SIZE(mro); ++i) {
    const char* name = ((PyTypeObject*)PyTuple_GET_ITEM(mro, i))->tp_name;
    if (strcmp(name, "numpy.dtype") == 0 || strcmp(name, "torch.dtype") == 0) return 1;
  }
  return 0;
}

static CoreArgKind classify_kind(PyTypeObject* t) {
  if (PyType_IsSubtype(t, &CoreObject_Type)) {
    return core_is_container_type(t) ? kCoreArgContainer : kCoreArgObject;
  }
  if (t == core_rvalue_ref_type) return kCoreArgRValueRef;
  if (type_has(t, "__tvm_ffi_object__")) return kCoreArgObjectProtocol;
  if (type_has(t, "__dlpack__") || type_has(t, "__dlpack_c_exchange_api__") ||
      type_has(t, "__c_dlpack_exchange_api__")) {
    /* Exact arrays only: a subclass may redefine what its buffer means. */
    return strcmp(t->tp_name, "numpy.ndarray") == 0 ? kCoreArgNumpy : kCoreArgTensor;
  }
  if (PyType_IsSubtype(t, &PyLong_Type) || is_subclass(t, g_numbers_integral)) {
    return kCoreArgIntegral;
  }
  if (PyType_IsSubtype(t, &PyFloat_Type) || is_subclass(t, g_numbers_real)) return kCoreArgReal;
  if (PyType_IsSubtype(t, &CoreDataType_Type)) return kCoreArgDataType;
  if (core_dtype_class != NULL && PyType_IsSubtype(t, (PyTypeObject*)core_dtype_class)) {
    return kCoreArgDTypeClass;
  }
  if (core_dtype_class != NULL && is_framework_dtype(t)) return kCoreArgFrameworkDType;
  if (PyType_IsSubtype(t, &CoreDevice_Type)) return kCoreArgDevice;
  if (PyType_IsSubtype(t, core_string_type)) return kCoreArgNativeStr;
  if (PyType_IsSubtype(t, core_bytes_type)) return kCoreArgNativeBytes;
  if (PyType_IsSubtype(t, &PyUnicode_Type)) return kCoreArgStr;
  if (PyType_IsSubtype(t, &PyBytes_Type) || PyType_IsSubtype(t, &PyByteArray_Type)) {
    return kCoreArgBytes;
  }
  if (PyType_IsSubtype(t, &PyTuple_Type) || PyType_IsSubtype(t, &PyList_Type)) {
    return kCoreArgSequence;
  }
  if (PyType_IsSubtype(t, &PyDict_Type)) return kCoreArgDict;
  if (is_subclass(t, core_ctypes_c_void_p)) return kCoreArgVoidP;
  if (type_has(t, "__tvm_ffi_opaque_ptr__")) return kCoreArgOpaquePtrProtocol;
  if (type_has(t, "__cuda_stream__")) return kCoreArgCudaStream;
  if (PyType_IsSubtype(t, (PyTypeObject*)PyExc_BaseException)) return kCoreArgException;
  if (t->tp_call != NULL) return kCoreArgCallable;
  if (type_has(t, "__dlpack_data_type__")) return kCoreArgDLPackDataType;
  if (type_has(t, "__dlpack_device__") && !type_has(t, "__dlpack__")) {
    return kCoreArgDLPackDevice;
  }
  if (type_has(t, "__tvm_ffi_int__")) return kCoreArgIntProtocol;
  if (type_has(t, "__tvm_ffi_float__")) return kCoreArgFloatProtocol;
  if (type_has(t, "__tvm_ffi_value__")) return kCoreArgValueProtocol;
  return kCoreArgOpaque;
}

/* The DLPackExchangeAPI* an attribute value publishes (capsule "dlpack_exchange_api" or int
 * address); NULL for a table of unknown layout. -1 with an exception when malformed. */
static int decode_exchange_api(PyTypeObject* type, PyObject* name, PyObject* attr,
                               const DLPackExchangeAPI** out) {
  void* ptr = NULL;
  if (PyCapsule_CheckExact(attr)) {
    ptr = PyCapsule_GetPointer(attr, "dlpack_exchange_api");
  } else if (PyLong_Check(attr)) {
    ptr = PyLong_AsVoidPtr(attr);
  } else {
    PyErr_Format(PyExc_TypeError, "`%s.%U` must be a PyCapsule or an int address, got `%s`",
                 type->tp_name, name, Py_TYPE(attr)->tp_name);
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

/* PyTorch before 2.10 publishes no exchange table. The first time a torch tensor class without
 * one is met (torch already imported: nothing is imported here), the Python side is asked once
 * to provide it (tvm_ffi._optional_torch_c_dlpack: the torch-c-dlpack-ext package, or our addon,
 * compiled into the cache the first time). A failure there is a warning, never this call's
 * error: the tensor then goes through __dlpack__. */
static int g_torch_table_offered = 0;

static void offer_torch_table(PyTypeObject* type) {
  PyObject* torch = PyImport_GetModule(g_str_torch); /* new reference; NULL: not imported */
  if (torch == NULL) {
    PyErr_Clear();
    return;
  }
  PyObject* tensor_cls = PyObject_GetAttrString(torch, "Tensor");
  Py_DECREF(torch);
  int is_torch = tensor_cls != NULL && PyType_Check(tensor_cls) &&
                 PyType_IsSubtype(type, (PyTypeObject*)tensor_cls);
  Py_XDECREF(tensor_cls);
  PyErr_Clear();
  if (!is_torch) return;
  g_torch_table_offered = 1;
  PyObject* module = PyImport_ImportModule("tvm_ffi._optional_torch_c_dlpack");
  PyObject* done = module != NULL ? PyObject_CallMethod(module, "_on_first_torch_tensor", NULL)
                                  : NULL;
  if (done == NULL) PyErr_WriteUnraisable((PyObject*)type);
  Py_XDECREF(done);
  Py_XDECREF(module);
}

static PyObject* find_exchange_attr(PyTypeObject* type, PyObject** name) {
  *name = g_str_exchange_api;
  PyObject* attr = _PyType_Lookup(type, *name); /* borrowed */
  if (attr == NULL) {
    *name = g_str_legacy_exchange_api;
    attr = _PyType_Lookup(type, *name);
  }
  return attr;
}

/* The attribute lives in the type's dict, where _PyType_Lookup finds it without raising when it
 * is absent; a descriptor is read like any attribute. The current name wins over the legacy one. */
int core_exchange_api_of(PyTypeObject* type, const DLPackExchangeAPI** out) {
  *out = NULL;
  PyObject* name;
  PyObject* attr = find_exchange_attr(type, &name);
  if (attr == NULL && !g_torch_table_offered) {
    offer_torch_table(type);
    attr = find_exchange_attr(type, &name);
  }
  if (attr == NULL) return 0;
  if (PyCapsule_CheckExact(attr) || PyLong_Check(attr)) {
    return decode_exchange_api(type, name, attr, out);
  }
  PyObject* value = PyObject_GetAttr((PyObject*)type, name);
  if (value == NULL) return -1;
  int rc = decode_exchange_api(type, name, value, out);
  Py_DECREF(value);
  return rc;
}

const CoreDispatchEntry* core_dispatch_classify(PyTypeObject* t, CoreDispatchEntry* scratch) {
  CoreArgKind kind = classify_kind(t);
  const DLPackExchangeAPI* api = NULL;
  if ((kind == kCoreArgTensor || kind == kCoreArgNumpy) && core_exchange_api_of(t, &api) != 0) {
    return NULL;
  }
  if (kind == kCoreArgTensor && api != NULL && api->dltensor_from_py_object_no_sync != NULL) {
    kind = kCoreArgTensorView;
  }
  CoreArgConverter convert = g_converters[kind];
  if (convert == NULL) convert = g_converters[kCoreArgOpaque];
  /* A lookup gives the type a version tag when CPython can; then the answer is kept. */
  (void)_PyType_Lookup(t, g_str_exchange_api);
  CoreDispatchEntry* entry = core_type_tag_valid(t) ? core_dispatch_slot(t) : scratch;
  entry->type = t;
  entry->version_tag = t->tp_version_tag;
  entry->kind = kind;
  entry->convert = convert;
  entry->api = api;
  return entry;
}

void core_dispatch_clear(void) { memset(core_dispatch_table, 0, sizeof(core_dispatch_table)); }

void core_dispatch_register(CoreArgKind kind, CoreArgConverter convert) {
  g_converters[kind] = convert;
  core_dispatch_clear();
}

PyObject* core_mod_set_class_dtype(PyObject* self, PyObject* cls) {
  (void)self;
  if (core_dtype_set_class(cls) != 0) return NULL;
  core_dispatch_clear(); /* framework dtypes and dtype-class instances classify anew */
  Py_RETURN_NONE;
}

int core_dispatch_init(void) {
  g_str_exchange_api = PyUnicode_InternFromString("__dlpack_c_exchange_api__");
  g_str_legacy_exchange_api = PyUnicode_InternFromString("__c_dlpack_exchange_api__");
  g_str_torch = PyUnicode_InternFromString("torch");
  if (g_str_exchange_api == NULL || g_str_legacy_exchange_api == NULL || g_str_torch == NULL) {
    return -1;
  }
  PyObject* numbers = PyImport_ImportModule("numbers");
  if (numbers == NULL) return -1;
  g_numbers_integral = PyObject_GetAttrString(numbers, "Integral");
  g_numbers_real = PyObject_GetAttrString(numbers, "Real");
  Py_DECREF(numbers);
  if (g_numbers_integral == NULL || g_numbers_real == NULL) return -1;
  return 0;
}
