/*
 * type_table.c -- FFI type index -> Python class.
 *
 * Two arrays indexed by type index: the classes registered by Python code, and the resolved
 * class per index (registered, else the nearest registered ancestor, else an auto-generated
 * subclass of Object named after the type key). A result's class is then one array load.
 * Any registration clears the resolved array, since it can change the nearest ancestor.
 *
 * TVMFFIGetTypeInfo ends the process on an unknown index, so indices that come from Python
 * (not from an object header) are checked against the registry first.
 */
#include <string.h>

#include "type_table.h"

#include "object.h"
#include "pending_error.h"
#include "state.h"

static PyObject** g_registered = NULL; /* owned references */
static PyTypeObject** g_resolved = NULL; /* borrowed from g_registered / g_fallbacks */
static char* g_known = NULL;             /* 1 = index confirmed registered in the runtime */
static int32_t g_capacity = 0;
static PyObject* g_fallbacks = NULL; /* dict: type index -> auto-generated class */

static int ensure_capacity(int32_t type_index) {
  if (type_index < g_capacity) return 0;
  int32_t cap = g_capacity != 0 ? g_capacity : 256;
  while (cap <= type_index) {
    if (cap > INT32_MAX / 2) {
      PyErr_Format(PyExc_ValueError, "type index %d is too large", (int)type_index);
      return -1;
    }
    cap *= 2;
  }
  PyObject** registered = (PyObject**)PyMem_Realloc(g_registered, (size_t)cap * sizeof(PyObject*));
  if (registered == NULL) return PyErr_NoMemory(), -1;
  g_registered = registered;
  PyTypeObject** resolved =
      (PyTypeObject**)PyMem_Realloc(g_resolved, (size_t)cap * sizeof(PyTypeObject*));
  if (resolved == NULL) return PyErr_NoMemory(), -1;
  g_resolved = resolved;
  char* known = (char*)PyMem_Realloc(g_known, (size_t)cap);
  if (known == NULL) return PyErr_NoMemory(), -1;
  g_known = known;
  size_t grow = (size_t)(cap - g_capacity);
  memset(g_registered + g_capacity, 0, grow * sizeof(PyObject*));
  memset(g_resolved + g_capacity, 0, grow * sizeof(PyTypeObject*));
  memset(g_known + g_capacity, 0, grow);
  g_capacity = cap;
  return 0;
}

/* ---- which indices exist ---- */

void core_type_table_mark_known(int32_t type_index) {
  if (type_index >= 0 && ensure_capacity(type_index) == 0) g_known[type_index] = 1;
  PyErr_Clear();
}

int core_type_table_is_known(int32_t type_index) {
  return type_index >= 0 && type_index < g_capacity && g_known[type_index];
}

PyObject* core_type_key_str(const TVMFFITypeInfo* info) {
  return PyUnicode_DecodeUTF8(info->type_key.data, (Py_ssize_t)info->type_key.size, "replace");
}

int core_type_table_scan_runtime(void) {
  static const TVMFFIByteArray name = {"ffi.GetRegisteredTypeKeys", 25};
  TVMFFIObjectHandle func = NULL;
  if (TVMFFIFunctionGetGlobal(&name, &func) != 0) return -1;
  if (func == NULL) return 0;
  TVMFFIAny keys = {0};
  int rc = TVMFFIFunctionCall(func, NULL, 0, &keys);
  TVMFFIObjectDecRef(func);
  if (rc != 0) return rc;
  if (keys.type_index != kTVMFFIArray) {
    if (keys.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(keys.v_obj);
    return 0;
  }
  const TVMFFISeqCell* cell = (const TVMFFISeqCell*)((char*)keys.v_obj + sizeof(TVMFFIObject));
  const TVMFFIAny* items = (const TVMFFIAny*)cell->data;
  for (int64_t i = 0; i < cell->size; ++i) {
    TVMFFIByteArray key;
    if (items[i].type_index == kTVMFFISmallStr) {
      key = TVMFFISmallBytesGetContentByteArray(&items[i]);
    } else if (items[i].type_index == kTVMFFIStr) {
      key = *TVMFFIBytesGetByteArrayPtr(items[i].v_obj);
    } else {
      continue;
    }
    int32_t index;
    if (TVMFFITypeKeyToIndex(&key, &index) == 0) {
      core_type_table_mark_known(index);
    } else {
      TVMFFIErrorMoveFromRaised(NULL);
    }
  }
  TVMFFIObjectDecRef(keys.v_obj);
  return 0;
}

/* The scan failed in the runtime (it allocates: only out of memory). The full translation of
 * FFI errors (error.c) sits above this table and needs it, so the runtime's message is raised
 * here as a RuntimeError. */
static void raise_scan_failure(void) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) {
    PyErr_SetString(PyExc_RuntimeError, "ffi.GetRegisteredTypeKeys failed");
    return;
  }
  const TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  PyErr_Format(PyExc_RuntimeError, "ffi.GetRegisteredTypeKeys failed: %.*s",
               (int)cell->message.size, cell->message.data);
  TVMFFIObjectDecRef(err);
}

/* ---- resolution ---- */

static PyTypeObject* make_fallback(int32_t type_index) {
  PyObject* index_key = PyLong_FromLong(type_index);
  if (index_key == NULL) return NULL;
  PyObject* cls = PyDict_GetItemWithError(g_fallbacks, index_key);
  if (cls != NULL || PyErr_Occurred()) {
    Py_DECREF(index_key);
    return (PyTypeObject*)cls;
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  PyObject* type_key = core_type_key_str(info);
  PyObject* ns = PyDict_New();
  if (type_key == NULL || ns == NULL) goto fail;
  /* "testing.TestFoo" -> class TestFoo in module "testing". */
  const char* key = info->type_key.data;
  size_t size = info->type_key.size;
  size_t dot = size;
  while (dot > 0 && key[dot - 1] != '.') --dot;
  PyObject* name = PyUnicode_DecodeUTF8(key + dot, (Py_ssize_t)(size - dot), "replace");
  PyObject* module = dot > 1 ? PyUnicode_DecodeUTF8(key, (Py_ssize_t)(dot - 1), "replace")
                             : PyUnicode_FromString("tvm_ffi");
  PyObject* doc = PyUnicode_FromFormat(
      "Auto-generated class for the unregistered FFI type `%U`.", type_key);
  PyObject* slots = PyTuple_New(0);
  int ok = name != NULL && module != NULL && doc != NULL && slots != NULL &&
           PyDict_SetItemString(ns, "__slots__", slots) == 0 &&
           PyDict_SetItemString(ns, "__module__", module) == 0 &&
           PyDict_SetItemString(ns, "__qualname__", name) == 0 &&
           PyDict_SetItemString(ns, "__doc__", doc) == 0;
  if (ok) {
    cls = PyObject_CallFunction((PyObject*)&PyType_Type, "O(O)O", name,
                                (PyObject*)&CoreRegisteredObject_Type, ns);
  }
  Py_XDECREF(name);
  Py_XDECREF(module);
  Py_XDECREF(doc);
  Py_XDECREF(slots);
  if (cls == NULL) goto fail;
  if (PyDict_SetItem(g_fallbacks, index_key, cls) != 0) {
    Py_DECREF(cls);
    goto fail;
  }
  Py_DECREF(cls); /* the dict keeps it */
  Py_DECREF(type_key);
  Py_DECREF(ns);
  Py_DECREF(index_key);
  return (PyTypeObject*)cls;
fail:
  Py_XDECREF(type_key);
  Py_XDECREF(ns);
  Py_DECREF(index_key);
  return NULL;
}

/* The Python-level factory (tvm_ffi._class_binding.make_fallback_class, installed as
 * _core._fallback_class_factory) makes and registers a class with the type's reflection bound.
 * NULL without exception when no factory is installed (early start-up). */
static PyTypeObject* from_fallback_factory(int32_t type_index) {
  if (core_module == NULL) return NULL;
  PyObject* factory = PyObject_GetAttrString(core_module, "_fallback_class_factory");
  if (factory == NULL) {
    PyErr_Clear();
    return NULL;
  }
  PyObject* cls = PyObject_CallFunction(factory, "i", (int)type_index);
  Py_DECREF(factory);
  if (cls == NULL) return NULL;
  int ok = PyType_Check(cls) && PyType_IsSubtype((PyTypeObject*)cls, &CoreObject_Type) &&
           type_index < g_capacity && g_registered[type_index] == cls;
  Py_DECREF(cls); /* g_registered keeps it */
  if (!ok) {
    PyErr_Format(PyExc_TypeError, "_fallback_class_factory(%d) did not register a tvm_ffi Object class",
                 (int)type_index);
    return NULL;
  }
  return (PyTypeObject*)cls;
}

static PyTypeObject* resolve(int32_t type_index) {
  if (type_index < 0) {
    PyErr_Format(PyExc_ValueError, "invalid object type index %d", (int)type_index);
    return NULL;
  }
  if (!core_type_table_is_known(type_index)) {
    /* An object a kernel made with an index nobody registered: refuse it here rather than
     * let the type-info lookup below end the process. */
    if (core_type_table_scan_runtime() != 0) {
      raise_scan_failure();
      return NULL;
    }
    if (!core_type_table_is_known(type_index)) {
      PyErr_Format(PyExc_TypeError, "an FFI object has the unregistered type index %d "
                   "(a kernel returned an object whose header is corrupt or never registered "
                   "its type)", (int)type_index);
      return NULL;
    }
  }
  if (ensure_capacity(type_index) != 0) return NULL;
  g_known[type_index] = 1;
  PyTypeObject* cls = (PyTypeObject*)g_registered[type_index];
  if (cls == NULL) cls = from_fallback_factory(type_index);
  if (cls == NULL && PyErr_Occurred()) return NULL;
  if (cls == NULL) {
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
    /* Nearest registered ancestor; the root ffi.Object does not count, so that unregistered
     * types get a class of their own that carries their name. */
    for (int32_t d = info->type_depth - 1; d >= 0 && cls == NULL; --d) {
      int32_t ancestor = info->type_ancestors[d]->type_index;
      if (ancestor != kTVMFFIObject && ancestor < g_capacity) {
        cls = (PyTypeObject*)g_registered[ancestor];
      }
    }
    if (cls == NULL) cls = make_fallback(type_index);
    if (cls == NULL) return NULL;
  }
  g_resolved[type_index] = cls;
  return cls;
}

PyTypeObject* core_class_for_index(int32_t type_index) {
  if (CORE_LIKELY(type_index >= 0 && type_index < g_capacity)) {
    PyTypeObject* cls = g_resolved[type_index];
    if (CORE_LIKELY(cls != NULL)) return cls;
  }
  return resolve(type_index);
}

PyObject* core_object_from_handle(TVMFFIObjectHandle handle) {
  PyTypeObject* cls = core_class_for_index(TVMFFIObjectGetTypeIndex(handle));
  if (CORE_UNLIKELY(cls == NULL)) {
    core_decref_keeping_error(handle);
    return NULL;
  }
  return core_object_new_of_class(cls, handle);
}

int core_type_table_register(int32_t type_index, PyObject* cls) {
  if (ensure_capacity(type_index) != 0) return -1;
  Py_INCREF(cls);
  Py_XSETREF(g_registered[type_index], cls);
  g_known[type_index] = 1;
  memset(g_resolved, 0, (size_t)g_capacity * sizeof(PyTypeObject*));
  return 0;
}

int core_type_table_init(void) {
  g_fallbacks = PyDict_New();
  if (g_fallbacks == NULL) return -1;
  struct {
    int32_t index;
    PyTypeObject* cls;
  } defaults[] = {
      {kTVMFFIObject, &CoreRegisteredObject_Type},
      {kTVMFFIOpaquePyObject, &CoreOpaque_Type},
  };
  for (size_t i = 0; i < sizeof(defaults) / sizeof(defaults[0]); ++i) {
    if (core_type_table_register(defaults[i].index, (PyObject*)defaults[i].cls) != 0) return -1;
  }
  return 0;
}
