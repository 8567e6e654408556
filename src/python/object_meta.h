/*
 * object_meta.h -- the metaclass of every FFI object class (object_meta.c).
 *
 * A class that derives from Object and does not name `__slots__` gets `__slots__ = ()`: its
 * instances carry no `__dict__`, so they are not tracked by the garbage collector, are made and
 * freed faster, and refuse unknown attributes, as the reference's classes do. A class that wants
 * instance attributes says `__slots__ = ("__dict__",)`.
 *
 * The metaclass derives from abc.ABCMeta, so an object class may also derive from an abstract
 * base (Array is a collections.abc.Sequence) without a metaclass conflict. isinstance() and
 * issubclass() answer a real subclass relation at once; only the "no" answers of classes made by
 * ABCMeta ask its registry of virtual subclasses, as ABCMeta itself would.
 */
#ifndef TVM_FFI_PYTHON_OBJECT_META_H_
#define TVM_FFI_PYTHON_OBJECT_META_H_

#include "base.h"

/* Makes the metaclass (once; adds it to the module as `_ObjectSlotsMeta`). Borrowed result. */
PyTypeObject* core_object_meta_init(PyObject* module);

#endif /* TVM_FFI_PYTHON_OBJECT_META_H_ */
