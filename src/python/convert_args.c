/*
 * convert_args.c -- Python values -> TVMFFIAny views for calls.
 *
 * The common types are tested by exact type in order of frequency (int, float, bool, None,
 * str, FFI objects, bytes, Device, dtype, ...), so a typical argument costs one or two pointer
 * compares. Everything else goes through a slower classification whose result is cached per
 * Python type. A str is passed as a borrowed UTF-8 view: CPython caches the UTF-8 form inside
 * the str, so no string object is made per call. Whatever a view depends on that the caller
 * does not already keep alive (new FFI objects, results of protocol methods) is recorded in
 * the call's CoreTemps and released after the call.
 */
#include <string.h>

#include "core.h"

#if PY_VERSION_HEX < 0x030B0000
#include <longintrepr.h> /* PyLongObject's digits (Python.h includes it from 3.11 on) */
#endif

CoreTensorArgHook core_tensor_arg_hook = NULL;

/* ---- temporaries ---- */

static int temps_push(CoreTemps* t, uintptr_t entry) {
  if (CORE_UNLIKELY(t->size == t->cap)) {
    int cap = t->cap * 2;
    uintptr_t* grown = (uintptr_t*)PyMem_Malloc((size_t)cap * sizeof(uintptr_t));
    if (grown == NULL) return -1;
    memcpy(grown, t->items, (size_t)t->size * sizeof(uintptr_t));
    if (t->items != t->inline_items) PyMem_Free(t->items);
    t->items = grown;
    t->cap = cap;
  }
  t->items[t->size++] = entry;
  return 0;
}

int core_temps_push_handle(CoreTemps* t, TVMFFIObjectHandle handle) {
  if (CORE_UNLIKELY(temps_push(t, (uintptr_t)handle) != 0)) {
    TVMFFIObjectDecRef(handle);
    PyErr_NoMemory();
    return -1;
  }
  return 0;
}

int core_temps_push_py(CoreTemps* t, PyObject* obj) {
  if (CORE_UNLIKELY(temps_push(t, (uintptr_t)obj | 1u) != 0)) {
    Py_DECREF(obj);
    PyErr_NoMemory();
    return -1;
  }
  return 0;
}

void core_temps_release(CoreTemps* t) {
  for (int i = t->size - 1; i >= 0; --i) {
    uintptr_t entry = t->items[i];
    if (entry & 1u) {
      Py_DECREF((PyObject*)(entry & ~(uintptr_t)1u));
    } else if (!core_view_tensor_release_sole((TVMFFIObjectHandle)entry)) {
      TVMFFIObjectDecRef((TVMFFIObjectHandle)entry);
    }
  }
  if (t->items != t->inline_items) PyMem_Free(t->items);
  core_temps_init(t);
}

/* ---- small setters ---- */

static inline void set_pod(TVMFFIAny* out, int32_t type_index) {
  out->type_index = type_index;
  out->zero_padding = 0;
  out->v_uint64 = 0;
}

static inline void set_object_view(TVMFFIAny* out, TVMFFIObjectHandle handle) {
  out->type_index = TVMFFIObjectGetTypeIndex(handle);
  out->zero_padding = 0;
  out->v_obj = (TVMFFIObject*)handle;
}

/* Adopts an owned object Any into temps and leaves a view of it in *out. */
static int set_owned_temp(TVMFFIAny* out, TVMFFIAny* owned, CoreTemps* temps) {
  if (owned->type_index >= kTVMFFIStaticObjectBegin) {
    if (core_temps_push_handle(temps, owned->v_obj) != 0) return -1;
  }
  *out = *owned;
  return 0;
}

static int set_handle_temp(TVMFFIAny* out, TVMFFIObjectHandle handle, CoreTemps* temps) {
  if (core_temps_push_handle(temps, handle) != 0) return -1;
  set_object_view(out, handle);
  return 0;
}

/* ---- int ---- */

/* An int beyond int64: ffi.BigInt from its two's complement words. */
static int convert_bigint(PyObject* value, TVMFFIAny* out, CoreTemps* temps,
                          const CoreArgSite* site) {
  PyObject* bits_obj = PyObject_CallMethod(value, "bit_length", NULL);
  if (bits_obj == NULL) return -1;
  size_t bits = PyLong_AsSize_t(bits_obj);
  Py_DECREF(bits_obj);
  if (bits == (size_t)-1 && PyErr_Occurred()) return -1;
  size_t nbytes = (bits / 64 + 1) * 8; /* +1 bit for the sign, whole words */
  PyObject* raw = core_int_to_bytes(value, nbytes);
  if (raw == NULL) return -1;
  char* data = PyBytes_AS_STRING(raw);
#if PY_BIG_ENDIAN
  /* Words are native-endian, least significant word first: swap each word's bytes. */
  for (size_t w = 0; w < nbytes; w += 8) {
    for (int i = 0; i < 4; ++i) {
      char c = data[w + i];
      data[w + i] = data[w + 7 - i];
      data[w + 7 - i] = c;
    }
  }
#endif
  TVMFFIByteArray words = {data, nbytes};
  TVMFFIAny owned;
  int rc = TVMFFIBigIntFromByteArray(&words, &owned);
  Py_DECREF(raw);
  if (rc != 0) {
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    core_raise_arg_error(PyExc_ValueError, site, "int of %zu bits does not fit ffi.BigInt",
                         bits);
    if (err != NULL) TVMFFIObjectDecRef(err);
    return -1;
  }
  return set_owned_temp(out, &owned, temps);
}

/* Ints of one digit (|v| < 2**30, nearly every int an argument carries) are read straight
 * from the object; the general conversion is a call and a loop over digits. */
static inline int small_int_value(PyObject* value, int64_t* out) {
#if PY_VERSION_HEX >= 0x030C0000
  if (!PyUnstable_Long_IsCompact((PyLongObject*)value)) return 0;
  *out = (int64_t)PyUnstable_Long_CompactValue((PyLongObject*)value);
  return 1;
#else
  Py_ssize_t size = Py_SIZE(value); /* the sign and the number of digits */
  if (size < -1 || size > 1) return 0;
  *out = (int64_t)size * (int64_t)((PyLongObject*)value)->ob_digit[0];
  return 1;
#endif
}

static inline int convert_exact_int(PyObject* value, TVMFFIAny* out, CoreTemps* temps,
                                    const CoreArgSite* site) {
  int64_t small;
  if (CORE_LIKELY(small_int_value(value, &small))) {
    out->type_index = kTVMFFIInt;
    out->zero_padding = 0;
    out->v_int64 = small;
    return 0;
  }
  int overflow;
  long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
  if (CORE_LIKELY(!overflow)) {
    if (v == -1 && PyErr_Occurred()) return -1;
    out->type_index = kTVMFFIInt;
    out->zero_padding = 0;
    out->v_int64 = (int64_t)v;
    return 0;
  }
  return convert_bigint(value, out, temps, site);
}

/* ---- str / bytes ---- */

static int convert_str(PyObject* value, TVMFFIAny* out, CoreTemps* temps,
                       const CoreArgSite* site) {
  Py_ssize_t size;
  const char* data = PyUnicode_AsUTF8AndSize(value, &size);
  if (CORE_UNLIKELY(data == NULL)) {
    if (PyErr_ExceptionMatches(PyExc_UnicodeError)) {
      PyObject *type, *val, *tb;
      PyErr_Fetch(&type, &val, &tb);
      core_raise_arg_error(PyExc_ValueError, site, "str cannot be encoded as UTF-8 (%S)",
                           val != NULL ? val : Py_None);
      Py_XDECREF(type);
      Py_XDECREF(val);
      Py_XDECREF(tb);
    }
    return -1;
  }
  if (size <= 7) {
    out->type_index = kTVMFFISmallStr;
    out->small_str_len = (uint32_t)size;
    out->v_uint64 = 0;
    memcpy(out->v_bytes, data, (size_t)size);
    return 0;
  }
  if (CORE_UNLIKELY(memchr(data, 0, (size_t)size) != NULL)) {
    /* A raw C string would stop at the NUL: pass a String object with the full content. */
    TVMFFIByteArray bytes = {data, (size_t)size};
    TVMFFIAny owned;
    if (TVMFFIStringFromByteArray(&bytes, &owned) != 0) {
      core_raise_from_rc(-1);
      return -1;
    }
    return set_owned_temp(out, &owned, temps);
  }
  out->type_index = kTVMFFIRawStr;
  out->zero_padding = 0;
  out->v_c_str = data;
  return 0;
}

static inline void convert_bytes(const char* data, Py_ssize_t size, TVMFFIAny* out,
                                 TVMFFIByteArray* bytes_slot) {
  if (size <= 7) {
    out->type_index = kTVMFFISmallBytes;
    out->small_str_len = (uint32_t)size;
    out->v_uint64 = 0;
    memcpy(out->v_bytes, data, (size_t)size);
    return;
  }
  bytes_slot->data = data;
  bytes_slot->size = (size_t)size;
  out->type_index = kTVMFFIByteArrayPtr;
  out->zero_padding = 0;
  out->v_ptr = bytes_slot;
}

static int convert_bytes_like(PyObject* value, TVMFFIAny* out, TVMFFIByteArray* bytes_slot) {
  if (PyBytes_Check(value)) {
    convert_bytes(PyBytes_AS_STRING(value), PyBytes_GET_SIZE(value), out, bytes_slot);
  } else {
    convert_bytes(PyByteArray_AS_STRING(value), PyByteArray_GET_SIZE(value), out, bytes_slot);
  }
  return 0;
}

/* String / Bytes instances: their cached FFI object when they have one, else the content. */
static int convert_native(PyObject* value, TVMFFIAny* out, TVMFFIByteArray* bytes_slot,
                          CoreTemps* temps, const CoreArgSite* site) {
  PyObject* cached = core_native_cached_object(value);
  if (cached != NULL && ((CoreObject*)cached)->chandle != NULL) {
    set_object_view(out, ((CoreObject*)cached)->chandle);
    return 0;
  }
  if (PyUnicode_Check(value)) return convert_str(value, out, temps, site);
  return convert_bytes_like(value, out, bytes_slot);
}

/* ---- FFI objects ---- */

static int convert_object(PyObject* value, TVMFFIAny* out, const CoreArgSite* site) {
  TVMFFIObjectHandle handle = ((CoreObject*)value)->chandle;
  if (CORE_UNLIKELY(handle == NULL)) {
    core_raise_arg_error(PyExc_ValueError, site, "`%s` object has no FFI handle (NULL)",
                         Py_TYPE(value)->tp_name);
    return -1;
  }
  set_object_view(out, handle);
  return 0;
}

static int convert_rvalue_ref(PyObject* value, TVMFFIAny* out, const CoreArgSite* site) {
  CoreObject* obj = (CoreObject*)((CoreRValueRef*)value)->obj;
  if (obj->chandle == NULL) {
    core_raise_arg_error(PyExc_ValueError, site, "ObjectRValueRef was already moved");
    return -1;
  }
  out->type_index = kTVMFFIObjectRValueRef;
  out->zero_padding = 0;
  out->v_ptr = &obj->chandle;
  return 0;
}

static void set_device(TVMFFIAny* out, DLDevice device) {
  out->type_index = kTVMFFIDevice;
  out->zero_padding = 0;
  out->v_device = device;
}

static void set_dtype(TVMFFIAny* out, DLDataType dtype) {
  set_pod(out, kTVMFFIDataType);
  out->v_dtype = dtype;
}

/* ---- containers ---- */

static TVMFFIObjectHandle g_array_func = NULL;
static TVMFFIObjectHandle g_map_func = NULL;

/* Global function handle cached for the process; looked up again while missing. */
static int cached_global(TVMFFIObjectHandle* slot, const char* name) {
  if (*slot != NULL) return 0;
  return core_get_global_handle(name, slot);
}

/* ---- snapshots ---- */

static int snapshot_reserve(CoreSnapshot* s, Py_ssize_t n) {
  s->size = 0;
  s->items = s->stack;
  if (n <= CORE_SNAPSHOT_STACK) return 0;
  s->items = (PyObject**)PyMem_Malloc((size_t)n * sizeof(PyObject*));
  if (s->items != NULL) return 0;
  s->items = s->stack;
  PyErr_NoMemory();
  return -1;
}

int core_snapshot_of_array(CoreSnapshot* s, PyObject* const* items, Py_ssize_t n) {
  if (snapshot_reserve(s, n) != 0) return -1;
  for (Py_ssize_t i = 0; i < n; ++i) {
    Py_INCREF(items[i]);
    s->items[i] = items[i];
  }
  s->size = n;
  return 0;
}

int core_snapshot_of_dict(CoreSnapshot* s, PyObject* dict) {
  if (snapshot_reserve(s, 2 * PyDict_GET_SIZE(dict)) != 0) return -1;
  Py_ssize_t pos = 0;
  PyObject *k, *v;
  /* No Python code runs in this loop, so the dict cannot change size under it. */
  while (PyDict_Next(dict, &pos, &k, &v)) {
    Py_INCREF(k);
    Py_INCREF(v);
    s->items[s->size++] = k;
    s->items[s->size++] = v;
  }
  return 0;
}

void core_snapshot_release(CoreSnapshot* s) {
  for (Py_ssize_t i = 0; i < s->size; ++i) Py_DECREF(s->items[i]);
  if (s->items != s->stack) PyMem_Free(s->items);
  s->items = s->stack;
  s->size = 0;
}

static int call_container_ctor(TVMFFIObjectHandle ctor, PyObject* const* items, Py_ssize_t n,
                               const char* where, TVMFFIAny* out, CoreTemps* temps,
                               const CoreArgSite* site) {
  if (Py_EnterRecursiveCall(where) != 0) return -1;
  TVMFFIAny made;
  /* Framework tensors inside the container count as the call's own (allocator, results). */
  int rc = core_call_converted(ctor, items, n, NULL, site, 0, &made, &temps->fw);
  Py_LeaveRecursiveCall();
  if (rc == 0) rc = set_owned_temp(out, &made, temps);
  return rc;
}

static int convert_sequence(PyObject* value, TVMFFIAny* out, CoreTemps* temps,
                            const CoreArgSite* site) {
  if (cached_global(&g_array_func, "ffi.Array") != 0) return -1;
  if (g_array_func == NULL) {
    core_raise_arg_error(PyExc_TypeError, site, "list/tuple needs the global `ffi.Array`");
    return -1;
  }
  static const char kWhere[] = " while converting a nested list/tuple";
  if (PyTuple_Check(value)) { /* immutable: its items stay alive as long as it does */
    return call_container_ctor(g_array_func, &PyTuple_GET_ITEM(value, 0),
                               PyTuple_GET_SIZE(value), kWhere, out, temps, site);
  }
  CoreSnapshot snapshot;
  if (core_snapshot_of_array(&snapshot, &PyList_GET_ITEM(value, 0), PyList_GET_SIZE(value)) != 0) {
    return -1;
  }
  int rc = call_container_ctor(g_array_func, snapshot.items, snapshot.size, kWhere, out, temps,
                               site);
  core_snapshot_release(&snapshot);
  return rc;
}

static int convert_dict(PyObject* value, TVMFFIAny* out, CoreTemps* temps,
                        const CoreArgSite* site) {
  if (cached_global(&g_map_func, "ffi.Map") != 0) return -1;
  if (g_map_func == NULL) {
    core_raise_arg_error(PyExc_TypeError, site, "dict arguments are not supported yet");
    return -1;
  }
  CoreSnapshot flat;
  if (core_snapshot_of_dict(&flat, value) != 0) return -1;
  int rc = call_container_ctor(g_map_func, flat.items, flat.size,
                               " while converting a nested dict", out, temps, site);
  core_snapshot_release(&flat);
  return rc;
}

/* ---- protocol helpers ---- */

static PyObject* call_protocol(PyObject* value, const char* name) {
  return PyObject_CallMethod(value, name, NULL);
}

static int void_p_value(PyObject* value, void** out, const CoreArgSite* site, const char* what) {
  if (value == Py_None) {
    *out = NULL;
    return 0;
  }
  if (!PyLong_Check(value)) {
    core_raise_arg_error(PyExc_TypeError, site, "%s must give an int address, got `%s`", what,
                         Py_TYPE(value)->tp_name);
    return -1;
  }
  *out = PyLong_AsVoidPtr(value);
  return (*out == NULL && PyErr_Occurred()) ? -1 : 0;
}

static int set_opaque_ptr_from(PyObject* addr, TVMFFIAny* out, const CoreArgSite* site,
                               const char* what) {
  void* ptr;
  if (void_p_value(addr, &ptr, site, what) != 0) return -1;
  set_pod(out, kTVMFFIOpaquePtr);
  out->v_ptr = ptr;
  return 0;
}

/* Reads an int pair/triple from a tuple returned by a protocol method. */
static int int_tuple(PyObject* tuple, long long* vals, Py_ssize_t n, const CoreArgSite* site,
                     const char* what) {
  if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != n) {
    core_raise_arg_error(PyExc_TypeError, site, "%s must return a tuple of %zd ints, got `%s`",
                         what, n, Py_TYPE(tuple)->tp_name);
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    vals[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(tuple, i));
    if (vals[i] == -1 && PyErr_Occurred()) return -1;
  }
  return 0;
}

/* `__cuda_stream__()` returns (tag, address): the tag is the protocol version (an int) or a
 * name such as "cuda"; only the address is passed, as an opaque pointer. */
static int set_cuda_stream(PyObject* pair, TVMFFIAny* out, const CoreArgSite* site) {
  if (!PyTuple_Check(pair)) {
    core_raise_arg_error(PyExc_TypeError, site,
                         "__cuda_stream__() must return a (tag, stream address) tuple, got `%s`",
                         Py_TYPE(pair)->tp_name);
    return -1;
  }
  if (PyTuple_GET_SIZE(pair) != 2) {
    core_raise_arg_error(PyExc_TypeError, site,
                         "__cuda_stream__() must return a (tag, stream address) tuple, got a "
                         "tuple of %zd items", PyTuple_GET_SIZE(pair));
    return -1;
  }
  PyObject* address = PyTuple_GET_ITEM(pair, 1);
  if (!PyLong_Check(address)) {
    core_raise_arg_error(PyExc_TypeError, site,
                         "__cuda_stream__() must return an int stream address, got `%s`",
                         Py_TYPE(address)->tp_name);
    return -1;
  }
  void* ptr = PyLong_AsVoidPtr(address);
  if (ptr == NULL && PyErr_Occurred()) return -1;
  set_pod(out, kTVMFFIOpaquePtr);
  out->v_ptr = ptr;
  return 0;
}

/* ---- slow path: classification cached per type ---- */

typedef enum {
  kKindOpaque = 0,
  kKindObjectProtocol,
  kKindTensor,
  kKindIntegral,
  kKindReal,
  kKindDataType,
  kKindDTypeClass,
  kKindFrameworkDType, /* numpy.dtype / torch.dtype: converted through the dtype class */
  kKindDevice,
  kKindNativeStr,
  kKindNativeBytes,
  kKindStr,
  kKindBytes,
  kKindSequence,
  kKindDict,
  kKindVoidP,
  kKindOpaquePtrProtocol,
  kKindCudaStream,
  kKindException,
  kKindCallable,
  kKindDLPackDataType,
  kKindDLPackDevice,
  kKindIntProtocol,
  kKindFloatProtocol,
  kKindValueProtocol,
} ArgKind;

static PyObject* g_kind_cache = NULL; /* dict: type address -> (kind, weakref to type) */
static PyObject* g_numbers_integral = NULL;
static PyObject* g_numbers_real = NULL;

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

static ArgKind classify(PyTypeObject* t) {
  if (type_has(t, "__tvm_ffi_object__")) return kKindObjectProtocol;
  if (core_tensor_arg_hook != NULL &&
      (type_has(t, "__dlpack__") || type_has(t, "__dlpack_c_exchange_api__"))) {
    return kKindTensor;
  }
  if (PyType_IsSubtype(t, &PyLong_Type) || is_subclass(t, g_numbers_integral)) {
    return kKindIntegral;
  }
  if (PyType_IsSubtype(t, &PyFloat_Type) || is_subclass(t, g_numbers_real)) return kKindReal;
  if (PyType_IsSubtype(t, &CoreDataType_Type)) return kKindDataType;
  if (core_dtype_class != NULL && PyType_IsSubtype(t, (PyTypeObject*)core_dtype_class)) {
    return kKindDTypeClass;
  }
  if (core_dtype_class != NULL && is_framework_dtype(t)) return kKindFrameworkDType;
  if (PyType_IsSubtype(t, &CoreDevice_Type)) return kKindDevice;
  if (PyType_IsSubtype(t, &CoreString_Type)) return kKindNativeStr;
  if (PyType_IsSubtype(t, core_bytes_type)) return kKindNativeBytes;
  if (PyType_IsSubtype(t, &PyUnicode_Type)) return kKindStr;
  if (PyType_IsSubtype(t, &PyBytes_Type) || PyType_IsSubtype(t, &PyByteArray_Type)) {
    return kKindBytes;
  }
  if (PyType_IsSubtype(t, &PyTuple_Type) || PyType_IsSubtype(t, &PyList_Type)) {
    return kKindSequence;
  }
  if (PyType_IsSubtype(t, &PyDict_Type)) return kKindDict;
  if (is_subclass(t, core_ctypes_c_void_p)) return kKindVoidP;
  if (type_has(t, "__tvm_ffi_opaque_ptr__")) return kKindOpaquePtrProtocol;
  if (type_has(t, "__cuda_stream__")) return kKindCudaStream;
  if (PyType_IsSubtype(t, (PyTypeObject*)PyExc_BaseException)) return kKindException;
  if (t->tp_call != NULL) return kKindCallable;
  if (type_has(t, "__dlpack_data_type__")) return kKindDLPackDataType;
  if (type_has(t, "__dlpack_device__") && !type_has(t, "__dlpack__")) return kKindDLPackDevice;
  if (type_has(t, "__tvm_ffi_int__")) return kKindIntProtocol;
  if (type_has(t, "__tvm_ffi_float__")) return kKindFloatProtocol;
  if (type_has(t, "__tvm_ffi_value__")) return kKindValueProtocol;
  return kKindOpaque;
}

/* The cache is keyed by the type's address and holds only a weak reference to the type, so
 * that classes made at run time (with closures over FFI objects) are not kept alive; the
 * weakref callback drops the entry before the address can be reused. */
/* A few recent answers in front of the dict: the slow-path argument type of a call (a NumPy
 * array, a torch tensor) is usually the same call after call, and the dict lookup costs ~25 ns
 * per argument. Only types present in the dict go here, and every drop from the dict empties
 * the memo, so a type address reused after its class died can never find a stale kind.
 * Touched only with the GIL held. */
enum { kKindMemoSize = 4 };
static PyTypeObject* g_kind_memo_types[kKindMemoSize];
static ArgKind g_kind_memo_kinds[kKindMemoSize];

static inline size_t kind_memo_slot(PyTypeObject* t) { return ((uintptr_t)t >> 6) % kKindMemoSize; }

static void kind_memo_clear(void) { memset(g_kind_memo_types, 0, sizeof(g_kind_memo_types)); }

static void kind_memo_put(PyTypeObject* t, ArgKind kind) {
  size_t slot = kind_memo_slot(t);
  g_kind_memo_types[slot] = t;
  g_kind_memo_kinds[slot] = kind;
}

static PyObject* drop_kind_entry(PyObject* key, PyObject* weakref) {
  (void)weakref;
  kind_memo_clear();
  if (g_kind_cache != NULL && PyDict_DelItem(g_kind_cache, key) != 0) PyErr_Clear();
  Py_RETURN_NONE;
}

static PyMethodDef drop_kind_entry_def = {"_drop_kind_entry", drop_kind_entry, METH_O, NULL};

static int kind_of(PyTypeObject* t, ArgKind* out) {
  size_t slot = kind_memo_slot(t);
  if (g_kind_memo_types[slot] == t) {
    *out = g_kind_memo_kinds[slot];
    return 0;
  }
  PyObject* key = PyLong_FromVoidPtr(t);
  if (key == NULL) return -1;
  PyObject* entry = PyDict_GetItemWithError(g_kind_cache, key);
  if (entry != NULL) {
    Py_DECREF(key);
    *out = (ArgKind)PyLong_AsLong(PyTuple_GET_ITEM(entry, 0));
    kind_memo_put(t, *out);
    return 0;
  }
  if (PyErr_Occurred()) {
    Py_DECREF(key);
    return -1;
  }
  ArgKind kind = classify(t);
  *out = kind;
  PyObject* callback = PyCFunction_New(&drop_kind_entry_def, key);
  PyObject* weak = callback != NULL ? PyWeakref_NewRef((PyObject*)t, callback) : NULL;
  Py_XDECREF(callback);
  if (weak == NULL) {
    /* Not weak-referenceable: just don't cache. */
    PyErr_Clear();
    Py_DECREF(key);
    return 0;
  }
  entry = Py_BuildValue("(iN)", (int)kind, weak);
  int rc = entry != NULL ? PyDict_SetItem(g_kind_cache, key, entry) : -1;
  Py_XDECREF(entry);
  Py_DECREF(key);
  if (rc == 0) kind_memo_put(t, kind);
  return rc;
}

/* Converts the result of a protocol method, keeping it alive for the call. */
static int convert_protocol_result(PyObject* result, TVMFFIAny* out,
                                   TVMFFIByteArray* bytes_slot, CoreTemps* temps,
                                   const CoreArgSite* site) {
  if (result == NULL) return -1;
  if (core_temps_push_py(temps, result) != 0) return -1;
  if (Py_EnterRecursiveCall(" while converting __tvm_ffi_value__") != 0) return -1;
  int rc = core_convert_arg(result, out, bytes_slot, temps, site);
  Py_LeaveRecursiveCall();
  return rc;
}

static int convert_slow(PyObject* value, TVMFFIAny* out, TVMFFIByteArray* bytes_slot,
                        CoreTemps* temps, const CoreArgSite* site) {
  ArgKind kind;
  if (kind_of(Py_TYPE(value), &kind) != 0) return -1;
  switch (kind) {
    case kKindObjectProtocol: {
      PyObject* obj = call_protocol(value, "__tvm_ffi_object__");
      if (obj == NULL) return -1;
      if (core_temps_push_py(temps, obj) != 0) return -1;
      if (!core_is_object(obj)) {
        core_raise_arg_error(PyExc_TypeError, site,
                             "__tvm_ffi_object__() must return an FFI Object, got `%s`",
                             Py_TYPE(obj)->tp_name);
        return -1;
      }
      return convert_object(obj, out, site);
    }
    case kKindTensor: {
      int handled = core_tensor_arg_hook(value, out, temps);
      if (handled != 0) return handled > 0 ? 0 : -1;
      break; /* not a tensor after all: opaque */
    }
    case kKindIntegral: {
      PyObject* index = PyNumber_Index(value);
      if (index == NULL) return -1;
      int rc = convert_exact_int(index, out, temps, site);
      Py_DECREF(index);
      return rc;
    }
    case kKindReal: {
      double v = PyFloat_AsDouble(value);
      if (v == -1.0 && PyErr_Occurred()) return -1;
      set_pod(out, kTVMFFIFloat);
      out->v_float64 = v;
      return 0;
    }
    case kKindDataType:
      set_dtype(out, ((CoreDataType*)value)->dtype);
      return 0;
    case kKindDTypeClass: {
      DLDataType dtype;
      if (core_dtype_instance_value(value, &dtype) != 0) return -1;
      set_dtype(out, dtype);
      return 0;
    }
    case kKindFrameworkDType: {
      PyObject* converted = PyObject_CallOneArg(core_dtype_class, value);
      if (converted == NULL) return -1;
      DLDataType dtype;
      int rc = core_dtype_instance_value(converted, &dtype);
      Py_DECREF(converted);
      if (rc != 0) return -1;
      set_dtype(out, dtype);
      return 0;
    }
    case kKindDevice:
      set_device(out, ((CoreDevice*)value)->device);
      return 0;
    case kKindNativeStr:
    case kKindNativeBytes:
      return convert_native(value, out, bytes_slot, temps, site);
    case kKindStr:
      return convert_str(value, out, temps, site);
    case kKindBytes:
      return convert_bytes_like(value, out, bytes_slot);
    case kKindSequence:
      return convert_sequence(value, out, temps, site);
    case kKindDict:
      return convert_dict(value, out, temps, site);
    case kKindVoidP: {
      PyObject* addr = PyObject_GetAttr(value, core_str_value);
      if (addr == NULL) return -1;
      int rc = set_opaque_ptr_from(addr, out, site, "ctypes.c_void_p");
      Py_DECREF(addr);
      return rc;
    }
    case kKindOpaquePtrProtocol: {
      PyObject* addr = call_protocol(value, "__tvm_ffi_opaque_ptr__");
      if (addr == NULL) return -1;
      int rc = set_opaque_ptr_from(addr, out, site, "__tvm_ffi_opaque_ptr__()");
      Py_DECREF(addr);
      return rc;
    }
    case kKindCudaStream: {
      PyObject* pair = call_protocol(value, "__cuda_stream__");
      if (pair == NULL) return -1;
      int rc = set_cuda_stream(pair, out, site);
      Py_DECREF(pair);
      return rc;
    }
    case kKindException: {
      TVMFFIObjectHandle err;
      if (core_error_from_py_exception(value, &err) != 0) return -1;
      return set_handle_temp(out, err, temps);
    }
    case kKindCallable: {
      TVMFFIObjectHandle func;
      if (core_make_py_function(value, &func) != 0) return -1;
      return set_handle_temp(out, func, temps);
    }
    case kKindDLPackDataType: {
      PyObject* triple = call_protocol(value, "__dlpack_data_type__");
      if (triple == NULL) return -1;
      long long vals[3];
      int rc = int_tuple(triple, vals, 3, site, "__dlpack_data_type__()");
      Py_DECREF(triple);
      if (rc != 0) return -1;
      DLDataType dtype = {(uint8_t)vals[0], (uint8_t)vals[1], (uint16_t)vals[2]};
      set_dtype(out, dtype);
      return 0;
    }
    case kKindDLPackDevice: {
      PyObject* pair = call_protocol(value, "__dlpack_device__");
      if (pair == NULL) return -1;
      long long vals[2];
      int rc = int_tuple(pair, vals, 2, site, "__dlpack_device__()");
      Py_DECREF(pair);
      if (rc != 0) return -1;
      set_device(out, TVMFFIDLDeviceFromIntPair((int32_t)vals[0], (int32_t)vals[1]));
      return 0;
    }
    case kKindIntProtocol: {
      PyObject* v = call_protocol(value, "__tvm_ffi_int__");
      if (v == NULL) return -1;
      int rc;
      if (PyLong_Check(v)) {
        rc = convert_exact_int(v, out, temps, site);
      } else {
        core_raise_arg_error(PyExc_TypeError, site, "__tvm_ffi_int__() must return an int, got `%s`",
                             Py_TYPE(v)->tp_name);
        rc = -1;
      }
      Py_DECREF(v);
      return rc;
    }
    case kKindFloatProtocol: {
      PyObject* v = call_protocol(value, "__tvm_ffi_float__");
      if (v == NULL) return -1;
      double d = PyFloat_AsDouble(v);
      Py_DECREF(v);
      if (d == -1.0 && PyErr_Occurred()) return -1;
      set_pod(out, kTVMFFIFloat);
      out->v_float64 = d;
      return 0;
    }
    case kKindValueProtocol:
      return convert_protocol_result(call_protocol(value, "__tvm_ffi_value__"), out, bytes_slot,
                                     temps, site);
    case kKindOpaque:
      break;
  }
  TVMFFIObjectHandle opaque;
  if (core_make_opaque(value, &opaque) != 0) return -1;
  return set_handle_temp(out, opaque, temps);
}

/* ---- entry points ---- */

int core_convert_arg(PyObject* value, TVMFFIAny* out, TVMFFIByteArray* bytes_slot,
                     CoreTemps* temps, const CoreArgSite* site) {
  PyTypeObject* t = Py_TYPE(value);
  if (t == &PyLong_Type) return convert_exact_int(value, out, temps, site);
  if (t == &PyFloat_Type) {
    out->type_index = kTVMFFIFloat;
    out->zero_padding = 0;
    out->v_float64 = PyFloat_AS_DOUBLE(value);
    return 0;
  }
  if (t == &PyBool_Type) {
    out->type_index = kTVMFFIBool;
    out->zero_padding = 0;
    out->v_int64 = value == Py_True;
    return 0;
  }
  if (value == Py_None) {
    set_pod(out, kTVMFFINone);
    return 0;
  }
  if (t == &PyUnicode_Type) return convert_str(value, out, temps, site);
  if (t == &CoreFunction_Type || t == &CoreObject_Type) return convert_object(value, out, site);
  /* A framework tensor type seen before (torch.Tensor): no classification at all. */
  if (core_is_exchange_memo_type(t)) return core_tensor_exchange_arg(value, out, temps);
  /* Exact builtin containers before the subclass walk, which they would fail anyway. */
  if (t == &PyList_Type || t == &PyTuple_Type) return convert_sequence(value, out, temps, site);
  if (t == &PyDict_Type) return convert_dict(value, out, temps, site);
  if (PyType_IsSubtype(t, &CoreObject_Type)) {
    /* A container returned in a framework's call keeps that framework through this call.
     * Containers are the types that hash by content: one compare keeps other objects fast. */
    if (CORE_UNLIKELY(t->tp_hash == core_container_hash) && temps->fw.api == NULL) {
      core_container_framework_into(value, &temps->fw);
    }
    return convert_object(value, out, site);
  }
  if (t == &PyBytes_Type) {
    convert_bytes(PyBytes_AS_STRING(value), PyBytes_GET_SIZE(value), out, bytes_slot);
    return 0;
  }
  if (t == &PyByteArray_Type) {
    convert_bytes(PyByteArray_AS_STRING(value), PyByteArray_GET_SIZE(value), out, bytes_slot);
    return 0;
  }
  if (t == &CoreDevice_Type) {
    set_device(out, ((CoreDevice*)value)->device);
    return 0;
  }
  if (t == &CoreDataType_Type) {
    set_dtype(out, ((CoreDataType*)value)->dtype);
    return 0;
  }
  if ((PyObject*)t == core_dtype_class) {
    DLDataType dtype;
    if (core_dtype_instance_value(value, &dtype) != 0) return -1;
    set_dtype(out, dtype);
    return 0;
  }
  if (t == &CoreString_Type || t == core_bytes_type) {
    return convert_native(value, out, bytes_slot, temps, site);
  }
  if (t == &CoreRValueRef_Type) return convert_rvalue_ref(value, out, site);
  return convert_slow(value, out, bytes_slot, temps, site);
}

int core_py_to_owned_any(PyObject* value, TVMFFIAny* out, const CoreArgSite* site) {
  CoreTemps temps;
  core_temps_init(&temps);
  TVMFFIByteArray bytes_slot;
  TVMFFIAny view;
  int rc = core_convert_arg(value, &view, &bytes_slot, &temps, site);
  if (rc == 0 && TVMFFIAnyViewToOwnedAny(&view, out) != 0) {
    core_raise_from_rc(-1);
    rc = -1;
  }
  core_temps_release(&temps);
  if (rc != 0) set_pod(out, kTVMFFINone);
  return rc;
}

void core_convert_clear_cache(void) {
  kind_memo_clear();
  core_exchange_memo_clear();
  if (g_kind_cache != NULL) PyDict_Clear(g_kind_cache);
}

int core_convert_init(void) {
  g_kind_cache = PyDict_New();
  if (g_kind_cache == NULL) return -1;
  PyObject* numbers = PyImport_ImportModule("numbers");
  if (numbers == NULL) return -1;
  g_numbers_integral = PyObject_GetAttrString(numbers, "Integral");
  g_numbers_real = PyObject_GetAttrString(numbers, "Real");
  Py_DECREF(numbers);
  if (g_numbers_integral == NULL || g_numbers_real == NULL) return -1;
  return 0;
}
