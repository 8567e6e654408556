/*
 * object.c -- Object (owner of one FFI handle), ObjectRValueRef and OpaquePyObject.
 *
 * A wrapper holds exactly one strong reference to its handle and drops it in tp_dealloc (no
 * __del__, so wrappers never resurrect). Equality and hashing follow handle identity, so two
 * wrappers of the same FFI object compare equal.
 */
#include "object.h"

#include <structmember.h>

#include "fastcall_args.h"
#include "object_meta.h"
#include "pending_error.h"
#include "state.h"

/* ---- Python objects kept alive by FFI objects ---- */

void core_pyobject_deleter(void* handle) {
  /* Past finalization the object is gone with the interpreter; touching it would crash. */
  if (handle == NULL || !core_python_alive()) return;
  PyGILState_STATE gil = PyGILState_Ensure();
  Py_DECREF((PyObject*)handle);
  PyGILState_Release(gil);
}

int core_make_opaque(PyObject* obj, TVMFFIObjectHandle* out) {
  Py_INCREF(obj);
  if (TVMFFIObjectCreateOpaque(obj, kTVMFFIOpaquePyObject, core_pyobject_deleter, out) != 0) {
    /* With a fixed, valid type index the runtime fails only to allocate. */
    Py_DECREF(obj);
    TVMFFIObjectHandle err = NULL;
    TVMFFIErrorMoveFromRaised(&err);
    if (err != NULL) TVMFFIObjectDecRef(err);
    PyErr_NoMemory();
    return -1;
  }
  return 0;
}

/* ---- Object ---- */

static PyObject* object_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  (void)args;
  (void)kwds;
  CoreObject* self = (CoreObject*)type->tp_alloc(type, 0);
  if (self == NULL) return NULL;
  self->chandle = NULL;
  return (PyObject*)self;
}

static void object_dealloc(PyObject* op) {
  CoreObject* self = (CoreObject*)op;
  TVMFFIObjectHandle handle = self->chandle;
  self->chandle = NULL;
  /* Deallocation can happen while an exception unwinds the frame that held the object. */
  if (handle != NULL) core_decref_keeping_error(handle);
  Py_TYPE(op)->tp_free(op);
}

static const char* object_type_key(TVMFFIObjectHandle handle, Py_ssize_t* size) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(TVMFFIObjectGetTypeIndex(handle));
  *size = (Py_ssize_t)info->type_key.size;
  return info->type_key.data;
}

/* repr(obj) is the runtime's ffi.ReprPrint text; when that fails (e.g. a raising __ffi_repr__
 * hook) `<Class>(<handle address>)`, and `<Class>(chandle=None)` for an empty wrapper. */
static PyObject* object_repr(PyObject* op) {
  CoreObject* self = (CoreObject*)op;
  const char* cls = _PyType_Name(Py_TYPE(op));
  if (self->chandle == NULL) return PyUnicode_FromFormat("%s(chandle=None)", cls);
  /* Looked up through the C API: a failed lookup only means the fallback text below. */
  static const TVMFFIByteArray repr_name = {"ffi.ReprPrint", 13};
  static TVMFFIObjectHandle repr_fn = NULL;
  if (repr_fn == NULL && TVMFFIFunctionGetGlobal(&repr_name, &repr_fn) != 0) {
    repr_fn = NULL;
    TVMFFIErrorMoveFromRaised(NULL);
  }
  if (repr_fn != NULL) {
    TVMFFIAny arg = {0};
    TVMFFIAny result = {0};
    arg.type_index = TVMFFIObjectGetTypeIndex(self->chandle);
    arg.v_obj = (TVMFFIObject*)self->chandle;
    if (TVMFFIFunctionCall(repr_fn, &arg, 1, &result) == 0) {
      PyObject* text = NULL;
      if (result.type_index == kTVMFFISmallStr) {
        text = PyUnicode_DecodeUTF8(result.v_bytes, result.small_str_len, "replace");
      } else if (result.type_index == kTVMFFIStr) {
        const TVMFFIByteArray* cell = (const TVMFFIByteArray*)(result.v_obj + 1);
        text = PyUnicode_DecodeUTF8(cell->data, (Py_ssize_t)cell->size, "replace");
      }
      if (result.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(result.v_obj);
      if (text != NULL) return text;
    }
    TVMFFIObjectHandle error = NULL;
    TVMFFIErrorMoveFromRaised(&error);
    if (error != NULL) TVMFFIObjectDecRef(error);
    PyErr_Clear();
  }
  return PyUnicode_FromFormat("%s(%zu)", cls, (size_t)self->chandle);
}

static PyObject* object_richcompare(PyObject* a, PyObject* b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !core_is_object(b)) Py_RETURN_NOTIMPLEMENTED;
  TVMFFIObjectHandle ha = ((CoreObject*)a)->chandle;
  TVMFFIObjectHandle hb = ((CoreObject*)b)->chandle;
  /* Two empty wrappers are only equal to themselves. */
  int same = (ha == NULL || hb == NULL) ? a == b : ha == hb;
  if (op == Py_NE) same = !same;
  return PyBool_FromLong(same);
}

static Py_hash_t object_hash(PyObject* op) {
  void* key = ((CoreObject*)op)->chandle;
  if (key == NULL) key = op;
  /* Pointers are 16-byte aligned: drop the always-zero bits, rotate them to the top. */
  size_t bits = (size_t)key;
  Py_hash_t h = (Py_hash_t)((bits >> 4) | (bits << (8 * sizeof(size_t) - 4)));
  return h == -1 ? -2 : h;
}

static PyObject* object_chandle(PyObject* op, PyObject* unused) {
  (void)unused;
  return PyLong_FromVoidPtr(((CoreObject*)op)->chandle);
}

static PyObject* same_handle(PyObject* op, PyObject* other) {
  if (!core_is_object(other)) Py_RETURN_FALSE;
  return PyBool_FromLong(((CoreObject*)op)->chandle == ((CoreObject*)other)->chandle);
}

/* same_as(other) and is_(other): `other` also by name, as the reference's. */
static PyObject* object_same_as(PyObject* op, PyObject* const* args, Py_ssize_t nargs,
                                PyObject* kwnames) {
  PyObject* other;
  if (core_bind_one_fastcall("same_as", "other", args, nargs, kwnames, &other) != 0) return NULL;
  return same_handle(op, other);
}
static PyObject* object_is(PyObject* op, PyObject* const* args, Py_ssize_t nargs,
                           PyObject* kwnames) {
  PyObject* other;
  if (core_bind_one_fastcall("is_", "other", args, nargs, kwnames, &other) != 0) return NULL;
  return same_handle(op, other);
}

/* The handle as a ctypes.c_void_p (value None when empty), for code that passes it to ctypes. */
static PyObject* object_ctypes_handle(PyObject* op, PyObject* unused) {
  (void)unused;
  void* handle = ((CoreObject*)op)->chandle;
  if (handle == NULL) return PyObject_CallNoArgs(core_ctypes_c_void_p);
  PyObject* addr = PyLong_FromVoidPtr(handle);
  if (addr == NULL) return NULL;
  PyObject* out = PyObject_CallOneArg(core_ctypes_c_void_p, addr);
  Py_DECREF(addr);
  return out;
}

/* `id_`: the handle's address as an int, like __chandle__ (0 when empty). */
static PyObject* object_get_id(PyObject* op, void* closure) {
  (void)closure;
  return PyLong_FromVoidPtr(((CoreObject*)op)->chandle);
}

void core_object_adopt(CoreObject* self, TVMFFIObjectHandle handle) {
  TVMFFIObjectHandle old = self->chandle;
  self->chandle = handle;
  if (old != NULL) TVMFFIObjectDecRef(old);
}

PyObject* core_object_new_of_class(PyTypeObject* cls, TVMFFIObjectHandle handle) {
  PyObject* obj = cls->tp_new(cls, core_empty_tuple, NULL);
  if (CORE_UNLIKELY(obj == NULL)) {
    core_decref_keeping_error(handle);
    return NULL;
  }
  if (CORE_UNLIKELY(!core_is_object(obj))) {
    PyErr_Format(PyExc_TypeError, "%s.__new__ returned `%s`, not an FFI Object", cls->tp_name,
                 Py_TYPE(obj)->tp_name);
    Py_DECREF(obj);
    core_decref_keeping_error(handle);
    return NULL;
  }
  core_object_adopt((CoreObject*)obj, handle);
  return obj;
}

static PyObject* object_move_handle_from(PyObject* op, PyObject* other) {
  if (!core_is_object(other)) {
    PyErr_Format(PyExc_TypeError, "__move_handle_from__() expects an FFI Object, got `%s`",
                 Py_TYPE(other)->tp_name);
    return NULL;
  }
  if (other == op) Py_RETURN_NONE;
  TVMFFIObjectHandle handle = ((CoreObject*)other)->chandle;
  ((CoreObject*)other)->chandle = NULL;
  core_object_adopt((CoreObject*)op, handle);
  Py_RETURN_NONE;
}

static PyObject* object_move(PyObject* op, PyObject* unused) {
  (void)unused;
  return PyObject_CallOneArg((PyObject*)core_rvalue_ref_type, op);
}

static int object_require_handle(CoreObject* self) {
  if (CORE_LIKELY(self->chandle != NULL)) return 0;
  PyErr_Format(PyExc_ValueError, "this `%s` has no FFI handle (NULL)", Py_TYPE(self)->tp_name);
  return -1;
}

static PyObject* object_get_type_index(PyObject* op, void* closure) {
  (void)closure;
  CoreObject* self = (CoreObject*)op;
  if (object_require_handle(self) != 0) return NULL;
  return PyLong_FromLong(TVMFFIObjectGetTypeIndex(self->chandle));
}

static PyObject* object_get_type_key(PyObject* op, void* closure) {
  (void)closure;
  CoreObject* self = (CoreObject*)op;
  if (object_require_handle(self) != 0) return NULL;
  Py_ssize_t size;
  const char* key = object_type_key(self->chandle, &size);
  return PyUnicode_DecodeUTF8(key, size, "replace");
}

/* The numpy sections shared by same_as and its alias is_ (`name` is the method in the example). */
#define SAME_AS_DOC_SECTIONS(name)                                 \
  "\n"                                                             \
  "Parameters\n"                                                   \
  "----------\n"                                                   \
  "other : Any\n"                                                  \
  "    The value to compare with.\n"                               \
  "\n"                                                             \
  "Returns\n"                                                      \
  "-------\n"                                                      \
  "bool\n"                                                         \
  "    True when ``other`` is an Object with the same handle.\n"   \
  "\n"                                                             \
  "Examples\n"                                                     \
  "--------\n"                                                     \
  ">>> a = tvm_ffi.convert([1, 2])\n"                              \
  ">>> a." name "(a), a." name "(tvm_ffi.convert([1, 2]))\n"       \
  "(True, False)"

static PyMethodDef object_methods[] = {
    {"__chandle__", object_chandle, METH_NOARGS, "Address of the FFI handle (0 when empty)."},
    {"same_as", (PyCFunction)(void (*)(void))object_same_as, METH_FASTCALL | METH_KEYWORDS,
     "same_as($self, other)\n"
     "--\n"
     "\n"
     "Tell whether two Python objects wrap the same FFI object (identity, not equality).\n"
     SAME_AS_DOC_SECTIONS("same_as")},
    {"is_", (PyCFunction)(void (*)(void))object_is, METH_FASTCALL | METH_KEYWORDS,
     "is_($self, other)\n"
     "--\n"
     "\n"
     "Alias of ``same_as``: whether two Python objects wrap the same FFI object.\n"
     SAME_AS_DOC_SECTIONS("is_")},
    {"__ctypes_handle__", object_ctypes_handle, METH_NOARGS,
     "The FFI handle as a ctypes.c_void_p (value None when empty)."},
    {"__move_handle_from__", object_move_handle_from, METH_O,
     "Takes the handle of another Object, leaving it empty."},
    {"_move", object_move, METH_NOARGS,
     "An ObjectRValueRef: passing it lets the callee take this object's reference."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef object_getset[] = {
    {"type_index", object_get_type_index, NULL, "Runtime type index of the wrapped object.",
     NULL},
    {"type_key", object_get_type_key, NULL, "Runtime type key of the wrapped object.", NULL},
    {"id_", object_get_id, NULL, "Address of the FFI handle as an int (0 when empty).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject CoreObject_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.CObject",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "CObject()\n--\n\nBase class of every FFI object wrapper: owns one reference to a "
              "runtime object.",
    .tp_new = object_new,
    .tp_dealloc = object_dealloc,
    .tp_repr = object_repr,
    .tp_richcompare = object_richcompare,
    .tp_hash = object_hash,
    .tp_methods = object_methods,
    .tp_getset = object_getset,
};

/* `Object`, the class of ffi.Object and of the reflected object types: a CObject without
 * anything of its own. As in the reference, functions, tensors, errors and opaque Python
 * objects are CObjects but not Objects, so `isinstance(x, tvm_ffi.Object)` tells the reflected
 * (and container) objects from the runtime's callable and data types. */
PyTypeObject CoreRegisteredObject_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.Object",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Object()\n--\n\nBase class of the reflected FFI object types (ffi.Object).",
};

/* ---- ObjectRValueRef ---- */

static PyObject* rvalue_new(PyTypeObject* type, PyObject* args, PyObject* kwds) {
  static char* kwlist[] = {"obj", NULL};
  PyObject* obj;
  if (!PyArg_ParseTupleAndKeywords(args, kwds, "O:ObjectRValueRef", kwlist, &obj)) return NULL;
  if (!core_is_object(obj)) {
    PyErr_Format(PyExc_TypeError, "ObjectRValueRef() expects an FFI Object, got `%s`",
                 Py_TYPE(obj)->tp_name);
    return NULL;
  }
  CoreRValueRef* self = (CoreRValueRef*)type->tp_alloc(type, 0);
  if (self == NULL) return NULL;
  Py_INCREF(obj);
  self->obj = obj;
  return (PyObject*)self;
}

static void rvalue_dealloc(PyObject* op) {
  PyTypeObject* type = Py_TYPE(op); /* a heap type: each instance holds a reference to it */
  Py_CLEAR(((CoreRValueRef*)op)->obj);
  type->tp_free(op);
  Py_DECREF(type);
}

static PyMemberDef rvalue_members[] = {
    {"obj", T_OBJECT, offsetof(CoreRValueRef, obj), READONLY, "The object to be moved."},
    {NULL, 0, 0, 0, NULL},
};

/* A heap type, as the reference's is, so Python's own messages name it `ObjectRValueRef`. */
static PyType_Slot rvalue_slots[] = {
    {Py_tp_doc, "ObjectRValueRef(obj)\n--\n\nMarks an Object as movable: the callee may take "
                "over its reference."},
    {Py_tp_new, rvalue_new},
    {Py_tp_dealloc, rvalue_dealloc},
    {Py_tp_members, rvalue_members},
    {0, NULL},
};

static PyType_Spec rvalue_spec = {"tvm_ffi.core.ObjectRValueRef", sizeof(CoreRValueRef), 0,
                                  Py_TPFLAGS_DEFAULT, rvalue_slots};

PyTypeObject* core_rvalue_ref_type = NULL;

/* ---- OpaquePyObject ---- */

static PyObject* opaque_pyobject(PyObject* op, PyObject* unused) {
  (void)unused;
  CoreObject* self = (CoreObject*)op;
  if (object_require_handle(self) != 0) return NULL;
  PyObject* held = (PyObject*)TVMFFIOpaqueObjectGetCellPtr(self->chandle)->handle;
  if (held == NULL) Py_RETURN_NONE;
  Py_INCREF(held);
  return held;
}

static PyMethodDef opaque_methods[] = {
    {"pyobject", opaque_pyobject, METH_NOARGS,
     "pyobject($self, /)\n"
     "--\n"
     "\n"
     "Return the Python object this FFI object holds.\n"
     "\n"
     "Returns\n"
     "-------\n"
     "Any\n"
     "    The wrapped Python object (a new reference to the very same object)."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject CoreOpaque_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.OpaquePyObject",
    .tp_basicsize = sizeof(CoreObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "FFI object holding an arbitrary Python object.",
    .tp_methods = opaque_methods,
};

int core_object_init_types(PyObject* module) {
  /* Before PyType_Ready: every C subtype readied later takes its metaclass from Object. */
  PyTypeObject* meta = core_object_meta_init(module);
  if (meta == NULL) return -1;
  Py_SET_TYPE(&CoreObject_Type, meta);
  CoreOpaque_Type.tp_base = &CoreObject_Type;
  CoreRegisteredObject_Type.tp_base = &CoreObject_Type;
  PyTypeObject* types[] = {&CoreObject_Type, &CoreRegisteredObject_Type, &CoreOpaque_Type};
  const char* names[] = {"CObject", "Object", "OpaquePyObject"};
  for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); ++i) {
    if (PyType_Ready(types[i]) < 0) return -1;
    if (core_type_declare_empty_slots(types[i]) != 0) return -1;
    Py_INCREF(types[i]);
    if (PyModule_AddObject(module, names[i], (PyObject*)types[i]) < 0) {
      Py_DECREF(types[i]);
      return -1;
    }
  }
  PyObject* rvalue_ref = core_type_from_spec(&rvalue_spec, NULL);
  if (rvalue_ref == NULL) return -1;
  core_rvalue_ref_type = (PyTypeObject*)rvalue_ref; /* kept for good, like the module's reference */
  if (PyModule_AddObjectRef(module, "ObjectRValueRef", rvalue_ref) < 0) return -1;
  return 0;
}

int core_type_declare_empty_slots(PyTypeObject* type) {
  PyObject* empty = PyTuple_New(0);
  if (empty == NULL) return -1;
  int rc = PyDict_SetItemString(type->tp_dict, "__slots__", empty);
  Py_DECREF(empty);
  if (rc == 0) PyType_Modified(type);
  return rc;
}

PyObject* core_type_from_spec(PyType_Spec* spec, PyObject* bases) {
  /* Python 3.9 takes only a tuple of bases (3.10 also a single class). */
  PyObject* tuple = bases == NULL || PyTuple_Check(bases) ? (Py_XINCREF(bases), bases)
                                                           : PyTuple_Pack(1, bases);
  if (bases != NULL && tuple == NULL) return NULL;
  PyObject* type = PyType_FromSpecWithBases(spec, tuple);
  Py_XDECREF(tuple);
  if (type == NULL) return NULL;
  /* What type.__name__'s setter and class statements do: tp_name is the UTF-8 of the short
   * name, which the type owns (__module__ and __qualname__ are kept apart). */
  const char* name = PyUnicode_AsUTF8(((PyHeapTypeObject*)type)->ht_name);
  if (name == NULL) {
    Py_DECREF(type);
    return NULL;
  }
  ((PyTypeObject*)type)->tp_name = name;
#if PY_VERSION_HEX < 0x030A0000
  /* 3.9 keeps only the text after a doc's signature line in tp_doc, where __text_signature__
   * (and so inspect.signature) looks for it: keep the whole doc there, as later versions do. */
  for (PyType_Slot* slot = spec->slots; slot->slot != 0; ++slot) {
    if (slot->slot != Py_tp_doc || slot->pfunc == NULL) continue;
    size_t size = strlen((const char*)slot->pfunc) + 1;
    char* doc = PyObject_Malloc(size);
    if (doc == NULL) {
      Py_DECREF(type);
      return PyErr_NoMemory();
    }
    memcpy(doc, slot->pfunc, size);
    PyObject_Free((void*)((PyTypeObject*)type)->tp_doc);
    ((PyTypeObject*)type)->tp_doc = doc;
  }
#endif
  return type;
}

int core_type_add_methods(PyTypeObject* type, PyMethodDef* defs) {
  for (PyMethodDef* def = defs; def->ml_name != NULL; ++def) {
    PyObject* descr = PyDescr_NewMethod(type, def);
    if (descr == NULL) return -1;
    int rc = PyDict_SetItemString(type->tp_dict, def->ml_name, descr);
    Py_DECREF(descr);
    if (rc != 0) return -1;
  }
  PyType_Modified(type);
  return 0;
}

int core_field_setter_call(void* setter, int setter_is_func, void* addr, const TVMFFIAny* value) {
  if (!setter_is_func) return ((TVMFFIFieldSetter)setter)(addr, value);
  TVMFFIAny args[2];
  args[0].type_index = kTVMFFIOpaquePtr;
  args[0].zero_padding = 0;
  args[0].v_ptr = addr;
  args[1] = *value;
  TVMFFIAny ignored = {0};
  int rc = TVMFFIFunctionCall(setter, args, 2, &ignored);
  if (rc == 0 && ignored.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(ignored.v_obj);
  return rc;
}
