/*
 * reflection.c -- reflected fields and methods of FFI object types, seen from Python.
 *
 *  - _type_info_raw(index): what TVMFFIGetTypeInfo says about a type, as plain Python values;
 *    python/tvm_ffi/_reflection.py builds TypeInfo/TypeField/TypeMethod from it.
 *  - _lookup_type_attr(index, name): a type attribute column entry (or None).
 *  - FieldProperty: the data descriptor register_object puts on a class for each reflected
 *    field. A read calls the field's C getter at handle + offset and converts the owned Any;
 *    no Python frame, no ctypes. A write converts the value like an argument and calls the
 *    setter (a C function pointer, or a FunctionObj called with (OpaquePtr field_addr, value)).
 *  - InstanceMethod and ConstructorInit: in reflection_methods.c.
 */
#include "reflection.h"

#include <string.h>
#include <structmember.h>

#include "call_context.h"
#include "convert_args.h"
#include "convert_result.h"
#include "dispatch.h"
#include "error.h"
#include "function.h"
#include "object.h"
#include "shape.h"
#include "state.h"
#include "string_types.h"
#include "type_table.h"

static PyObject* byte_array_str(TVMFFIByteArray b) {
  return PyUnicode_DecodeUTF8(b.data != NULL ? b.data : "", (Py_ssize_t)b.size, "replace");
}

/* A doc string, or None when empty. */
static PyObject* doc_or_none(TVMFFIByteArray b) {
  if (b.size == 0) Py_RETURN_NONE;
  return byte_array_str(b);
}

static int parse_type_index(PyObject* arg, int32_t* out) {
  /* _type_index_to_key validates the index (TVMFFIGetTypeInfo is fatal on unknown ones). */
  PyObject* key = PyObject_CallMethod(core_module, "_type_index_to_key", "O", arg);
  if (key == NULL) return -1;
  Py_DECREF(key);
  *out = (int32_t)PyLong_AsLong(arg);
  return 0;
}

/* ---- _type_info_raw ---- */

static PyObject* field_tuple(const TVMFFIFieldInfo* f) {
  PyObject* dflt;
  if (f->flags & kTVMFFIFieldFlagBitMaskHasDefault) {
    TVMFFIAny owned = {0};
    if (TVMFFIAnyViewToOwnedAny(&f->default_value_or_factory, &owned) != 0) {
      return core_raise_from_rc(-1);
    }
    dflt = core_any_to_py(&owned);
  } else {
    dflt = PyObject_GetAttrString(core_module, "MISSING");
  }
  if (dflt == NULL) return NULL;
  return Py_BuildValue("(NNNLLLLKKNi)", byte_array_str(f->name), doc_or_none(f->doc),
                       byte_array_str(f->metadata), (long long)f->flags, (long long)f->size,
                       (long long)f->alignment, (long long)f->offset,
                       (unsigned long long)(uintptr_t)f->getter,
                       (unsigned long long)(uintptr_t)f->setter, dflt,
                       (int)f->field_static_type_index);
}

static PyObject* method_tuple(const TVMFFIMethodInfo* m) {
  PyObject* func;
  if (m->method.type_index >= kTVMFFIStaticObjectBegin && m->method.v_obj != NULL) {
    TVMFFIObjectIncRef(m->method.v_obj);
    func = core_function_from_handle(m->method.v_obj, NULL);
  } else {
    func = Py_None;
    Py_INCREF(func);
  }
  if (func == NULL) return NULL;
  return Py_BuildValue("(NNNLN)", byte_array_str(m->name), doc_or_none(m->doc),
                       byte_array_str(m->metadata), (long long)m->flags, func);
}

/* (type_index, type_depth, type_key, [ancestor indices], [field tuples], [method tuples],
 *  (doc, total_size, has_creator) or None) */
static PyObject* mod_type_info_raw(PyObject* self, PyObject* arg) {
  (void)self;
  int32_t index;
  if (parse_type_index(arg, &index) != 0) return NULL;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  PyObject* ancestors = PyList_New(info->type_depth);
  PyObject* fields = PyList_New(info->num_fields);
  PyObject* methods = PyList_New(info->num_methods);
  if (ancestors == NULL || fields == NULL || methods == NULL) goto fail;
  for (int32_t d = 0; d < info->type_depth; ++d) {
    PyObject* v = PyLong_FromLong(info->type_ancestors[d]->type_index);
    if (v == NULL) goto fail;
    PyList_SET_ITEM(ancestors, d, v);
  }
  for (int32_t i = 0; i < info->num_fields; ++i) {
    PyObject* v = field_tuple(&info->fields[i]);
    if (v == NULL) goto fail;
    PyList_SET_ITEM(fields, i, v);
  }
  for (int32_t i = 0; i < info->num_methods; ++i) {
    PyObject* v = method_tuple(&info->methods[i]);
    if (v == NULL) goto fail;
    PyList_SET_ITEM(methods, i, v);
  }
  PyObject* meta;
  if (info->metadata != NULL) {
    meta = Py_BuildValue("(NiO)", doc_or_none(info->metadata->doc), (int)info->metadata->total_size,
                         info->metadata->creator != NULL ? Py_True : Py_False);
    if (meta == NULL) goto fail;
  } else {
    meta = Py_None;
    Py_INCREF(meta);
  }
  return Py_BuildValue("(iiNNNNN)", (int)info->type_index, (int)info->type_depth,
                       byte_array_str(info->type_key), ancestors, fields, methods, meta);
fail:
  Py_XDECREF(ancestors);
  Py_XDECREF(fields);
  Py_XDECREF(methods);
  return NULL;
}

/* ---- _type_info_shapes ---- */

/* For each type index of a sequence: num_fields << 32 | num_methods << 1 | has_metadata. The
 * runtime only adds fields and methods and sets metadata once, so an unchanged shape means
 * _type_info_raw would say nothing new. Checked after every library load for every type the
 * Python side knows, in one call and without building field and method tuples. */
static PyObject* mod_type_info_shapes(PyObject* self, PyObject* arg) {
  (void)self;
  PyObject* seq = PySequence_Fast(arg, "_type_info_shapes() expects a sequence of type indices");
  if (seq == NULL) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  PyObject* out = PyTuple_New(n);
  for (Py_ssize_t i = 0; out != NULL && i < n; ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(seq, i);
    long value = PyLong_AsLong(item);
    int32_t index = (int32_t)value;
    if ((value == -1 && PyErr_Occurred()) ||
        ((value < 0 || value > INT32_MAX || !core_type_table_is_known(index)) &&
         parse_type_index(item, &index) != 0)) {
      Py_CLEAR(out);
      break;
    }
    const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
    long long shape = ((long long)info->num_fields << 32) | ((long long)info->num_methods << 1) |
                      (info->metadata != NULL ? 1 : 0);
    PyObject* v = PyLong_FromLongLong(shape);
    if (v == NULL) {
      Py_CLEAR(out);
      break;
    }
    PyTuple_SET_ITEM(out, i, v);
  }
  Py_DECREF(seq);
  return out;
}

/* ---- _lookup_type_attr ---- */

static PyObject* mod_lookup_type_attr(PyObject* self, PyObject* args) {
  (void)self;
  PyObject* index_obj;
  const char* name;
  Py_ssize_t name_size;
  if (!PyArg_ParseTuple(args, "Os#:_lookup_type_attr", &index_obj, &name, &name_size)) return NULL;
  long index = PyLong_AsLong(index_obj);
  if (index == -1 && PyErr_Occurred()) return NULL;
  TVMFFIByteArray key = {name, (size_t)name_size};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&key);
  if (column == NULL || index < column->begin_index ||
      index >= (long)column->begin_index + column->size) {
    Py_RETURN_NONE;
  }
  TVMFFIAny owned = {0};
  if (TVMFFIAnyViewToOwnedAny(&column->data[index - column->begin_index], &owned) != 0) {
    return core_raise_from_rc(-1);
  }
  return core_any_to_py(&owned);
}

/* ---- FieldProperty ---- */

/* Fields whose storage the static type and size pin down are read directly at the offset
 * (what their getters would do); all others go through the getter. */
enum { FIELD_INT64 = 1, FIELD_DOUBLE, FIELD_BOOL };

/* FieldProperty subclasses `property` (as the reference's descriptors do, so
 * isinstance(cls.__dict__["a"], property) holds). CPython keeps property's struct private, so
 * our state lives after property's instance size, at an offset known only at init. */
typedef struct {
  int kind;
  int frozen;
  int64_t offset;
  TVMFFIFieldGetter getter;
  void* setter; /* TVMFFIFieldSetter, or an owned FunctionObj handle (setter_is_func) */
  int setter_is_func;
  PyObject* name;
  PyObject* doc;
  /* The last instance type found to be an Object subclass, borrowed: it only counts while its
   * version tag matches, and CPython never hands a tag out twice. */
  PyTypeObject* checked_type;
  unsigned int checked_tag;
} FieldProperty;

static PyTypeObject FieldProperty_Type;
static Py_ssize_t field_state_offset;

static inline FieldProperty* field_state(PyObject* op) {
  return (FieldProperty*)((char*)op + field_state_offset);
}

static int field_instance(FieldProperty* self, PyObject* obj, void** addr) {
  PyTypeObject* type = Py_TYPE(obj);
  if (CORE_LIKELY(type == self->checked_type && type->tp_version_tag == self->checked_tag &&
                  core_type_tag_valid(type))) {
    /* the common case: two compares instead of the subclass walk */
  } else if (core_is_object(obj)) {
    self->checked_type = core_type_tag_valid(type) ? type : NULL;
    self->checked_tag = type->tp_version_tag;
  } else {
    PyErr_Format(PyExc_TypeError, "field `%U` needs a tvm_ffi Object, got `%s`", self->name,
                 Py_TYPE(obj)->tp_name);
    return -1;
  }
  TVMFFIObjectHandle handle = ((CoreObject*)obj)->chandle;
  if (CORE_UNLIKELY(handle == NULL)) {
    PyErr_Format(PyExc_ValueError, "field `%U` of a `%s` that holds no object (not constructed)",
                 self->name, Py_TYPE(obj)->tp_name);
    return -1;
  }
  *addr = (char*)handle + self->offset;
  return 0;
}

static PyObject* field_get(PyObject* op, PyObject* obj, PyObject* type) {
  (void)type;
  FieldProperty* self = field_state(op);
  if (obj == NULL || obj == Py_None) {
    Py_INCREF(op);
    return op;
  }
  void* addr;
  if (field_instance(self, obj, &addr) != 0) return NULL;
  switch (self->kind) {
    case FIELD_INT64: return PyLong_FromLongLong(*(int64_t*)addr);
    case FIELD_DOUBLE: return PyFloat_FromDouble(*(double*)addr);
    case FIELD_BOOL: return PyBool_FromLong(*(uint8_t*)addr != 0);
    default: break;
  }
  TVMFFIAny result = {0};
  if (CORE_UNLIKELY(self->getter(addr, &result) != 0)) return core_raise_from_rc(-1);
  return core_any_to_py(&result);
}

/* Writes regardless of frozen (FieldProperty.set, used by constructors and replace). */
static int field_write(FieldProperty* self, PyObject* obj, PyObject* value) {
  void* addr;
  if (field_instance(self, obj, &addr) != 0) return -1;
  if (self->setter == NULL) {
    PyErr_Format(PyExc_AttributeError, "field `%U` of `%s` has no setter", self->name,
                 Py_TYPE(obj)->tp_name);
    return -1;
  }
  CoreCallContext ctx;
  core_call_context_init(&ctx, self->name, 0);
  TVMFFIAny view;
  if (core_convert_arg(value, &view, &ctx) != 0) {
    core_call_context_release(&ctx);
    return -1;
  }
  int rc = core_field_setter_call(self->setter, self->setter_is_func, addr, &view);
  core_call_context_release(&ctx);
  if (rc != 0) {
    core_raise_from_rc(rc);
    return -1;
  }
  return 0;
}

static int field_set(PyObject* op, PyObject* obj, PyObject* value) {
  FieldProperty* self = field_state(op);
  /* Worded as this Python's own property without a setter or deleter words it (the reference's
   * fields are properties): 3.11 names the class by its qualname, earlier versions name nothing. */
#if PY_VERSION_HEX < 0x030B0000
  if (value == NULL || self->frozen) {
    PyErr_SetString(PyExc_AttributeError,
                    value == NULL ? "can't delete attribute" : "can't set attribute");
    return -1;
  }
#endif
  if (value == NULL) {
    PyErr_Format(PyExc_AttributeError, "property of '%s' object has no deleter",
                 Py_TYPE(obj)->tp_name);
    return -1;
  }
  if (self->frozen) {
    PyObject* qualname = PyObject_GetAttrString((PyObject*)Py_TYPE(obj), "__qualname__");
    if (qualname == NULL) return -1;
    PyErr_Format(PyExc_AttributeError, "property of '%S' object has no setter", qualname);
    Py_DECREF(qualname);
    return -1;
  }
  return field_write(self, obj, value);
}

static PyObject* field_set_method(PyObject* op, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2) {
    PyErr_SetString(PyExc_TypeError, "FieldProperty.set(obj, value) takes 2 arguments");
    return NULL;
  }
  if (field_write(field_state(op), args[0], args[1]) != 0) return NULL;
  Py_RETURN_NONE;
}

/* FieldProperty(name, doc, offset, getter_address, setter_address, setter_is_func, frozen,
 *               static_type_index=-1, size=0) */
static PyObject* field_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  PyObject *name, *doc;
  long long offset, size = 0;
  unsigned long long getter, setter;
  int setter_is_func, frozen, static_type = kTVMFFIAny;
  static char* kwlist[] = {"name", "doc", "offset", "getter", "setter", "setter_is_func", "frozen",
                           "static_type_index", "size", NULL};
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "UOLKKpp|iL:FieldProperty", kwlist, &name, &doc,
                                   &offset, &getter, &setter, &setter_is_func, &frozen,
                                   &static_type, &size)) {
    return NULL;
  }
  if (getter == 0) {
    PyErr_Format(PyExc_ValueError, "field `%U` has no getter", name);
    return NULL;
  }
  PyObject* op = type->tp_alloc(type, 0);
  if (op == NULL) return NULL;
  FieldProperty* self = field_state(op);
  self->kind = static_type == kTVMFFIInt && size == 8     ? FIELD_INT64
               : static_type == kTVMFFIFloat && size == 8 ? FIELD_DOUBLE
               : static_type == kTVMFFIBool && size == 1  ? FIELD_BOOL
                                                          : 0;
  self->offset = offset;
  self->getter = (TVMFFIFieldGetter)(uintptr_t)getter;
  self->setter = (void*)(uintptr_t)setter;
  self->setter_is_func = setter_is_func && setter != 0;
  if (self->setter_is_func) TVMFFIObjectIncRef(self->setter);
  self->frozen = frozen;
  Py_INCREF(name);
  self->name = name;
  Py_INCREF(doc);
  self->doc = doc;
  return op;
}

/* property.__init__ would read our constructor's arguments as (fget, fset, fdel, doc). */
static int field_init(PyObject* op, PyObject* args, PyObject* kwargs) {
  (void)op, (void)args, (void)kwargs;
  return 0;
}

static int field_traverse(PyObject* op, visitproc visit, void* arg) {
  Py_VISIT(field_state(op)->doc);
  return PyProperty_Type.tp_traverse(op, visit, arg);
}

static int field_clear(PyObject* op) {
  Py_CLEAR(field_state(op)->doc);
  return PyProperty_Type.tp_clear != NULL ? PyProperty_Type.tp_clear(op) : 0;
}

static void field_dealloc(PyObject* op) {
  FieldProperty* self = field_state(op);
  PyObject_GC_UnTrack(op);
  if (self->setter_is_func && self->setter != NULL) TVMFFIObjectDecRef(self->setter);
  self->setter = NULL;
  Py_CLEAR(self->name);
  Py_CLEAR(self->doc);
  PyObject_GC_Track(op); /* property's dealloc untracks it again */
  PyProperty_Type.tp_dealloc(op);
}

static PyObject* field_get_doc(PyObject* op, void* closure) {
  (void)closure;
  PyObject* doc = field_state(op)->doc;
  if (doc == NULL) Py_RETURN_NONE;
  Py_INCREF(doc);
  return doc;
}

/* property's view: fset is None for frozen fields, else the bound `set`; fdel is None. */
static PyObject* field_get_fset(PyObject* op, void* closure) {
  (void)closure;
  if (field_state(op)->frozen) Py_RETURN_NONE;
  return PyObject_GetAttrString(op, "set");
}

static PyObject* field_get_fget(PyObject* op, void* closure) {
  (void)closure;
  Py_INCREF(op);
  return op;
}

static PyObject* field_get_fdel(PyObject* op, void* closure) {
  (void)op, (void)closure;
  Py_RETURN_NONE;
}

static PyObject* field_get_name(PyObject* op, void* closure) {
  (void)closure;
  PyObject* name = field_state(op)->name;
  if (name == NULL) Py_RETURN_NONE;
  Py_INCREF(name);
  return name;
}

static PyObject* field_get_offset(PyObject* op, void* closure) {
  (void)closure;
  return PyLong_FromLongLong(field_state(op)->offset);
}

static PyObject* field_get_frozen(PyObject* op, void* closure) {
  (void)closure;
  return PyLong_FromLong(field_state(op)->frozen);
}

static PyMethodDef field_methods[] = {
    {"set", (PyCFunction)(void (*)(void))field_set_method, METH_FASTCALL,
     "set($self, obj, value, /)\n--\n\nWrites the field, read-only fields included."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef field_getset[] = {
    {"__doc__", field_get_doc, NULL, NULL, NULL},
    {"fset", field_get_fset, NULL, NULL, NULL},
    {"fget", field_get_fget, NULL, NULL, NULL},
    {"fdel", field_get_fdel, NULL, NULL, NULL},
    {"name", field_get_name, NULL, "Field name.", NULL},
    {"offset", field_get_offset, NULL, "Byte offset in the object.", NULL},
    {"frozen", field_get_frozen, NULL, "True for read-only fields.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* Named FFIProperty, as the reference names its descriptor class (what type(), repr and error
 * messages show); _core also exports it as FieldProperty. */
static PyTypeObject FieldProperty_Type = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tvm_ffi.core.FFIProperty",
    .tp_dealloc = field_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "Data descriptor of a reflected field: reads call the C getter at the field offset.",
    .tp_traverse = field_traverse,
    .tp_clear = field_clear,
    .tp_new = field_new,
    .tp_init = field_init,
    .tp_descr_get = field_get,
    .tp_descr_set = field_set,
    .tp_methods = field_methods,
    .tp_getset = field_getset,
};

static int field_property_ready(void) {
  Py_ssize_t align = (Py_ssize_t)sizeof(int64_t);
  field_state_offset = (PyProperty_Type.tp_basicsize + align - 1) / align * align;
  FieldProperty_Type.tp_base = &PyProperty_Type;
  FieldProperty_Type.tp_basicsize = field_state_offset + (Py_ssize_t)sizeof(FieldProperty);
  return PyType_Ready(&FieldProperty_Type);
}

/* ---- _class_for_type_index ---- */

/* Strings, bytes and shapes come to Python as values (str, bytes and tuple subclasses), not as
 * object wrappers, so their classes stand outside the type table, which makes the wrappers. */
static PyTypeObject* value_class_for_index(int32_t index) {
  switch (index) {
    case kTVMFFIStr: return core_string_type;
    case kTVMFFIBytes: return core_bytes_type;
    case kTVMFFIShape: return core_shape_class();
    default: return NULL;
  }
}

static PyObject* mod_class_for_type_index(PyObject* self, PyObject* arg) {
  (void)self;
  int32_t index;
  if (parse_type_index(arg, &index) != 0) return NULL;
  PyTypeObject* cls = value_class_for_index(index);
  if (cls == NULL) cls = core_class_for_index(index);
  if (cls == NULL) return NULL;
  Py_INCREF(cls);
  return (PyObject*)cls;
}

/* ---- module registration ---- */

static PyMethodDef reflection_functions[] = {
    {"_type_info_raw", mod_type_info_raw, METH_O,
     "Raw reflection of a type index (see tvm_ffi._reflection)."},
    {"_type_info_shapes", mod_type_info_shapes, METH_O,
     "num_fields << 32 | num_methods << 1 | has_metadata of each type index: changes whenever "
     "reflection is added."},
    {"_class_for_type_index", mod_class_for_type_index, METH_O,
     "The Python class values of a type index come back as (an object class made on demand)."},
    {"_lookup_type_attr", mod_lookup_type_attr, METH_VARARGS,
     "_lookup_type_attr(type_index, name): the type attribute value, or None."},
    {NULL, NULL, 0, NULL},
};

int core_reflection_init(PyObject* module) {
  if (field_property_ready() != 0) return -1;
  Py_INCREF(&FieldProperty_Type);
  if (PyModule_AddObject(module, "FieldProperty", (PyObject*)&FieldProperty_Type) != 0) return -1;
  return PyModule_AddFunctions(module, reflection_functions);
}
