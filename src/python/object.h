/*
 * object.h -- Object (the owner of one FFI handle), ObjectRValueRef and OpaquePyObject
 * (object.c).
 */
#ifndef TVM_FFI_PYTHON_OBJECT_H_
#define TVM_FFI_PYTHON_OBJECT_H_

#include "base.h"

/* Base of every FFI object wrapper: owns one strong reference to chandle (may be NULL).
 * No weak-reference slot: as with the reference's wrappers, weakref.ref(obj) is a TypeError
 * (and no subclass adds one, since their __slots__ are empty). */
typedef struct {
  PyObject_HEAD
  TVMFFIObjectHandle chandle;
} CoreObject;

typedef struct {
  PyObject_HEAD
  PyObject* obj; /* a CoreObject whose handle slot the callee may steal */
} CoreRValueRef;

extern PyTypeObject CoreObject_Type;           /* CObject: every wrapper derives from it */
extern PyTypeObject CoreRegisteredObject_Type; /* Object: ffi.Object and reflected types */
extern PyTypeObject* core_rvalue_ref_type; /* ObjectRValueRef, a heap type; NULL before init */
extern PyTypeObject CoreOpaque_Type;

static inline int core_is_object(PyObject* v) {
  return Py_TYPE(v) == &CoreObject_Type || PyType_IsSubtype(Py_TYPE(v), &CoreObject_Type);
}

/* Deleter for FFI objects that hold a strong reference to a Python object: takes the GIL,
 * since the last FFI reference may go away on any thread. */
void core_pyobject_deleter(void* handle);
/* Wraps any Python object as an owned kTVMFFIOpaquePyObject handle. */
int core_make_opaque(PyObject* obj, TVMFFIObjectHandle* out);
/* Makes an instance of `cls` (a CoreObject subclass) adopting `handle` (stolen). */
PyObject* core_object_new_of_class(PyTypeObject* cls, TVMFFIObjectHandle handle);
/* Replaces the wrapper's handle with `handle` (stolen), releasing the old one. */
void core_object_adopt(CoreObject* self, TVMFFIObjectHandle handle);

/* Writes `value` (borrowed) into a reflected field at `addr` through the field's setter: a
 * TVMFFIFieldSetter, or (setter_is_func, TVMFFIFieldInfo's SetterIsFunctionObj flag) a function
 * called with (the field address as an opaque pointer, value). The C error code; no GIL needed. */
int core_field_setter_call(void* setter, int setter_is_func, void* addr, const TVMFFIAny* value);

int core_object_init_types(PyObject* module);
/* Adds methods (a NULL-terminated table) to CObject or Object after its PyType_Ready: how files
 * above the call layer give every wrapper a method without object.c depending on them. */
int core_type_add_methods(PyTypeObject* type, PyMethodDef* defs);

/* Declares `__slots__ = ()` on a readied C wrapper class, as the reference's classes read
 * (`Tensor.__slots__`); the layout is the C struct's either way. */
int core_type_declare_empty_slots(PyTypeObject* type);

/* A heap type from `spec` (with `bases`: one class, a tuple of them, or NULL) that Python's own
 * messages name by its short name ("'String' object has no attribute 'x'"), as they name classes
 * made by a class statement and as the reference's classes read; PyType_FromSpec alone leaves the
 * dotted spec name there. A new reference, or NULL with an exception. */
PyObject* core_type_from_spec(PyType_Spec* spec, PyObject* bases);

#endif /* TVM_FFI_PYTHON_OBJECT_H_ */
