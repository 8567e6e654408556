/*
 * py_class.c -- runtime support for object types defined from Python (tvm_ffi.dataclasses).
 *
 *  - ffi.MakeFieldGetter(field_static_type_index) -> int: the address of a C getter reading one
 *    storage kind (int64, bool, double, void*, DLDataType, DLDevice, owned Any, object pointer).
 *  - ffi.MakeFieldSetter(field_static_type_index, converter, exact_index) -> Function
 *    (OpaquePtr addr, value): stores a value of that kind; `converter` (a Function or None) first
 *    turns the assigned value into the declared type (it raises the TypeError users see). Values
 *    that need no conversion (scalars of the field's kind, values of type `exact_index`, strings
 *    when it is -2) skip the converter.
 *  - ffi._PyClassRegisterTypeAttrColumns(type_index, total_size): the type attributes that make
 *    instances: `__ffi_new__` (zeroed block whose deleter releases the Any/object fields of the
 *    whole ancestor chain), `__ffi_shallow_copy__` and the generated `__ffi_init__`.
 * Storage kinds follow the field static type index: 1 int, 2 bool, 3 float, 4 void*, 5 dtype,
 * 6 Device, -1/0 Any (16 bytes), >= 64 object pointer (NULL = None).
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "structural/graph_util.h"
#include "type_define_internal.h"

enum { kAny = -1, kInt = 1, kBool = 2, kFloat = 3, kPtr = 4, kDType = 5, kDevice = 6, kObj = 64 };

static int storage_kind(int64_t fsti) {
  if (fsti == -1 || fsti == 0) return kAny;
  if (fsti >= kTVMFFIStaticObjectBegin) return kObj;
  if (fsti >= kInt && fsti <= kDevice) return (int)fsti;
  return 0;
}

/* ---- getters ---- */

static int get_bool(void* addr, TVMFFIAny* out) {
  ffi_ret_bool(out, *(uint8_t*)addr != 0);
  return 0;
}
static int get_float(void* addr, TVMFFIAny* out) {
  *out = ffi_any_none();
  out->type_index = kTVMFFIFloat;
  out->v_float64 = *(double*)addr;
  return 0;
}
static int get_ptr(void* addr, TVMFFIAny* out) {
  *out = ffi_any_none();
  out->type_index = kTVMFFIOpaquePtr;
  out->v_ptr = *(void**)addr;
  return 0;
}
static int get_dtype(void* addr, TVMFFIAny* out) {
  *out = ffi_any_none();
  out->type_index = kTVMFFIDataType;
  memcpy(&out->v_dtype, addr, sizeof(DLDataType));
  return 0;
}
static int get_device(void* addr, TVMFFIAny* out) {
  *out = ffi_any_none();
  out->type_index = kTVMFFIDevice;
  memcpy(&out->v_device, addr, sizeof(DLDevice));
  return 0;
}
static TVMFFIFieldGetter getter_of(int kind) {
  switch (kind) {
    case kInt: return ffi_field_get_i64;
    case kBool: return get_bool;
    case kFloat: return get_float;
    case kPtr: return get_ptr;
    case kDType: return get_dtype;
    case kDevice: return get_device;
    case kAny: return ffi_field_get_any;
    case kObj: return ffi_field_get_obj;
    default: return NULL;
  }
}

static int global_make_getter(void* self, const TVMFFIAny* args, int32_t num_args,
                              TVMFFIAny* result) {
  (void)self;
  static const char kName[] = "ffi.MakeFieldGetter";
  int64_t fsti;
  if (ffi_check_num_args(kName, num_args, 1) != 0 || ffi_arg_int(kName, args, 0, &fsti) != 0) {
    return -1;
  }
  TVMFFIFieldGetter getter = getter_of(storage_kind(fsti));
  if (getter == NULL) {
    return ffi_raise("ValueError", "Unsupported field type index for getter: %lld", (long long)fsti);
  }
  ffi_ret_int(result, (int64_t)(intptr_t)getter);
  return 0;
}

/* ---- setters ---- */

typedef struct {
  int kind;
  TVMFFIObject* converter; /* a Function or NULL */
  int64_t exact_index;     /* values of this type index need no conversion; -2 strings, -1 none */
} Setter;

/* True when `v` is stored as is, so the (Python) converter is skipped: scalars of the field's
 * own kind (int/bool interchange as the converter does) and values of the exact declared type. */
static bool needs_no_conversion(const Setter* s, const TVMFFIAny* v) {
  int32_t t = v->type_index;
  switch (s->kind) {
    case kInt:
    case kBool: return t == kTVMFFIInt || t == kTVMFFIBool;
    case kFloat: return t == kTVMFFIFloat || t == kTVMFFIInt || t == kTVMFFIBool;
    default: break;
  }
  if (s->exact_index == -2) return t == kTVMFFISmallStr || t == kTVMFFIStr;
  return s->exact_index >= 0 && t == s->exact_index;
}

static int kind_error(const char* expected, const TVMFFIAny* v) {
  TVMFFIByteArray k = ffi_type_key_of(v->type_index);
  return ffi_raise("TypeError", "expected %s, got %.*s", expected, (int)k.size, k.data);
}

/* Stores `v` (a view) at `addr` for storage `kind`; the old value is released after. */
static int store(int kind, void* addr, const TVMFFIAny* v) {
  int32_t t = v->type_index;
  switch (kind) {
    case kInt:
      if (t != kTVMFFIInt && t != kTVMFFIBool) return kind_error("int", v);
      *(int64_t*)addr = v->v_int64;
      return 0;
    case kBool:
      if (t != kTVMFFIInt && t != kTVMFFIBool) return kind_error("bool", v);
      *(uint8_t*)addr = v->v_int64 != 0;
      return 0;
    case kFloat:
      if (t == kTVMFFIFloat) *(double*)addr = v->v_float64;
      else if (t == kTVMFFIInt || t == kTVMFFIBool) *(double*)addr = (double)v->v_int64;
      else return kind_error("float", v);
      return 0;
    case kPtr:
      if (t != kTVMFFIOpaquePtr && t != kTVMFFINone) return kind_error("ctypes.c_void_p", v);
      *(void**)addr = t == kTVMFFINone ? NULL : v->v_ptr;
      return 0;
    case kDType:
      if (t != kTVMFFIDataType) return kind_error("dtype", v);
      memcpy(addr, &v->v_dtype, sizeof(DLDataType));
      return 0;
    case kDevice:
      if (t != kTVMFFIDevice) return kind_error("Device", v);
      memcpy(addr, &v->v_device, sizeof(DLDevice));
      return 0;
    case kAny: {
      TVMFFIAny owned = ffi_any_none();
      if (TVMFFIAnyViewToOwnedAny(v, &owned) != 0) return -1;
      TVMFFIAny old = *(TVMFFIAny*)addr;
      *(TVMFFIAny*)addr = owned;
      ffi_any_release(&old);
      return 0;
    }
    case kObj: {
      TVMFFIObject* obj = NULL;
      if (ffi_is_object_index(t)) obj = v->v_obj;
      else if (t != kTVMFFINone) return kind_error("Object", v);
      if (obj != NULL) ffi_incref(obj);
      TVMFFIObject* old = *(TVMFFIObject**)addr;
      *(TVMFFIObject**)addr = obj;
      if (old != NULL) ffi_decref(old);
      return 0;
    }
    default: return ffi_raise("RuntimeError", "unsupported field storage kind %d", kind);
  }
}

static int setter_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)result;
  Setter* s = (Setter*)self;
  if (num_args != 2 || args[0].type_index != kTVMFFIOpaquePtr || args[0].v_ptr == NULL) {
    return ffi_raise("TypeError", "field setter expects (OpaquePtr field_addr, value)");
  }
  if (s->converter == NULL || needs_no_conversion(s, &args[1])) {
    return store(s->kind, args[0].v_ptr, &args[1]);
  }
  TVMFFIAny value = args[1]; /* a view: the callee does not keep it */
  TVMFFIAny converted = ffi_any_none();
  if (TVMFFIFunctionCall(s->converter, &value, 1, &converted) != 0) return -1;
  int rc = store(s->kind, args[0].v_ptr, &converted);
  ffi_any_release(&converted);
  return rc;
}

static void setter_free(void* self) {
  Setter* s = (Setter*)self;
  if (s->converter != NULL) ffi_decref(s->converter);
  free(s);
}

static int global_make_setter(void* self, const TVMFFIAny* args, int32_t num_args,
                              TVMFFIAny* result) {
  (void)self;
  static const char kName[] = "ffi.MakeFieldSetter";
  int64_t fsti;
  int64_t exact_index = -1;
  if (ffi_check_num_args_range(kName, num_args, 1, 3) != 0) return -1;
  if (num_args == 3 && ffi_arg_int(kName, args, 2, &exact_index) != 0) return -1;
  if (ffi_arg_int(kName, args, 0, &fsti) != 0) return -1;
  int kind = storage_kind(fsti);
  if (getter_of(kind) == NULL) {
    return ffi_raise("ValueError", "Unsupported field type index for setter: %lld", (long long)fsti);
  }
  TVMFFIObject* converter = NULL;
  if (num_args >= 2 && args[1].type_index == kTVMFFIFunction) converter = args[1].v_obj;
  else if (num_args >= 2 && args[1].type_index != kTVMFFINone) {
    return ffi_raise("TypeError", "%s: converter must be a Function or None", kName);
  }
  Setter* s = (Setter*)malloc(sizeof(Setter));
  if (s == NULL) return ffi_raise("MemoryError", "%s: out of memory", kName);
  s->kind = kind;
  s->converter = converter;
  s->exact_index = exact_index;
  if (converter != NULL) ffi_incref(converter);
  TVMFFIObject* fn = NULL;
  if (ffi_closure_new(s, setter_call, setter_free, &fn) != 0) {
    setter_free(s);
    return -1;
  }
  ffi_ret_object(result, fn);
  return 0;
}

/* ---- instances ---- */

typedef struct {
  int32_t type_index;
  int64_t total_size;
} PyType;

/* Calls visit(slot address, kind) for every Any/object field of obj's type and its ancestors. */
static void for_each_owned_slot(TVMFFIObject* obj, void (*visit)(void* addr, int kind)) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index);
  for (int32_t d = 0; info != NULL && d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* t = d < info->type_depth ? info->type_ancestors[d] : info;
    for (int32_t i = 0; t != NULL && i < t->num_fields; ++i) {
      const TVMFFIFieldInfo* f = &t->fields[i];
      int kind = storage_kind(f->field_static_type_index);
      if ((kind == kAny && f->size == 16) || (kind == kObj && f->size == 8)) {
        visit((char*)obj + f->offset, kind);
      }
    }
  }
}

/* Destroyer-side release: the nested variants queue a dying child instead of recursing, so a
 * long chain of objects is freed without growing the C stack. */
static void release_slot(void* addr, int kind) {
  if (kind == kAny) {
    ffi_any_release_nested((TVMFFIAny*)addr);
  } else {
    TVMFFIObject* o = *(TVMFFIObject**)addr;
    *(TVMFFIObject**)addr = NULL;
    if (o != NULL) ffi_decref_nested(o);
  }
}

static void retain_slot(void* addr, int kind) {
  if (kind == kAny) {
    TVMFFIAny* a = (TVMFFIAny*)addr;
    if (ffi_is_object_index(a->type_index) && a->v_obj != NULL) ffi_incref(a->v_obj);
  } else if (*(TVMFFIObject**)addr != NULL) {
    ffi_incref(*(TVMFFIObject**)addr);
  }
}

static void py_object_destroy(void* self) { for_each_owned_slot((TVMFFIObject*)self, release_slot); }
FFI_DEFINE_DELETER(py_object_deleter, py_object_destroy)

static int new_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)args;
  PyType* p = (PyType*)self;
  if (num_args != 0) return ffi_raise("TypeError", "__ffi_new__ takes no arguments");
  TVMFFIObject* obj = ffi_object_alloc((size_t)p->total_size, p->type_index, py_object_deleter);
  if (obj == NULL) return -1;
  ffi_ret_object(result, obj);
  return 0;
}

static int shallow_copy_call(void* self, const TVMFFIAny* args, int32_t num_args,
                             TVMFFIAny* result) {
  PyType* p = (PyType*)self;
  if (num_args != 1 || !ffi_is_object_index(args[0].type_index) ||
      !ffi_type_is_instance(args[0].v_obj->type_index, p->type_index)) {
    return ffi_raise("TypeError", "__ffi_shallow_copy__ expects one `%.*s` object",
                     (int)ffi_type_key_of(p->type_index).size, ffi_type_key_of(p->type_index).data);
  }
  TVMFFIObject* src = args[0].v_obj;
  if (src->type_index != p->type_index) {
    /* A subclass instance copies through its own type's attribute. */
    const TVMFFIAny* fn = ffi_type_attr(src->type_index, "__ffi_shallow_copy__");
    if (fn == NULL) return ffi_raise("TypeError", "type has no __ffi_shallow_copy__");
    return ffi_call(fn, args, 1, result);
  }
  TVMFFIObject* obj = ffi_object_alloc((size_t)p->total_size, p->type_index, py_object_deleter);
  if (obj == NULL) return -1;
  size_t header = sizeof(TVMFFIObject);
  memcpy((char*)obj + header, (char*)src + header, (size_t)p->total_size - header);
  for_each_owned_slot(obj, retain_slot);
  ffi_ret_object(result, obj);
  return 0;
}

static int define_attr(int32_t type_index, const char* name, PyType state,
                       TVMFFISafeCallType call) {
  PyType* p = (PyType*)malloc(sizeof(PyType));
  if (p == NULL) return ffi_raise("MemoryError", "out of memory");
  *p = state;
  TVMFFIObject* fn = NULL;
  if (ffi_closure_new(p, call, free, &fn) != 0) {
    free(p);
    return -1;
  }
  TVMFFIByteArray attr = {name, strlen(name)};
  TVMFFIAny value = ffi_any_from_object(fn);
  int rc = TVMFFITypeRegisterAttr(type_index, &attr, &value);
  ffi_decref(fn);
  return rc;
}

static int global_register_columns(void* self, const TVMFFIAny* args, int32_t num_args,
                                   TVMFFIAny* result) {
  (void)self;
  static const char kName[] = "ffi._PyClassRegisterTypeAttrColumns";
  int64_t type_index, total_size;
  if (ffi_check_num_args(kName, num_args, 2) != 0 || ffi_arg_int(kName, args, 0, &type_index) != 0 ||
      ffi_arg_int(kName, args, 1, &total_size) != 0) {
    return -1;
  }
  if (type_index < kTVMFFIStaticObjectBegin || type_index > INT32_MAX ||
      !ffi_type_index_is_registered((int32_t)type_index)) {
    return ffi_raise("ValueError", "%s: %lld is not a registered object type index", kName,
                     (long long)type_index);
  }
  if (total_size < (int64_t)sizeof(TVMFFIObject) || total_size > (1 << 24)) {
    return ffi_raise("ValueError", "%s: invalid total size %lld", kName, (long long)total_size);
  }
  PyType state = {(int32_t)type_index, total_size};
  if (define_attr(state.type_index, "__ffi_new__", state, new_call) != 0 ||
      define_attr(state.type_index, "__ffi_shallow_copy__", state, shallow_copy_call) != 0) {
    return -1;
  }
  TVMFFIByteArray init_name = {"ffi._RegisterFFIInit", 20};
  TVMFFIObjectHandle init = NULL;
  if (TVMFFIFunctionGetGlobal(&init_name, &init) != 0 || init == NULL) {
    return ffi_raise("RuntimeError", "%s: ffi._RegisterFFIInit is missing", kName);
  }
  TVMFFIAny index_arg = args[0];
  TVMFFIAny out = ffi_any_none();
  int rc = TVMFFIFunctionCall(init, &index_arg, 1, &out);
  ffi_any_release(&out);
  ffi_decref((TVMFFIObject*)init);
  (void)result;
  return rc;
}

/* ffi._PyClassRaisePending(): raises the error a C API call made by ctypes left pending. */
static int global_raise_pending(void* self, const TVMFFIAny* args, int32_t num_args,
                                TVMFFIAny* result) {
  (void)self;
  (void)args;
  (void)num_args;
  (void)result;
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) return 0;
  TVMFFIErrorSetRaised(err);
  ffi_decref((TVMFFIObject*)err);
  return -1;
}

void ffi_register_py_class_globals(void) {
  ffi_register_builtin("ffi._PyClassRaisePending", global_raise_pending);
  ffi_register_builtin("ffi.MakeFieldGetter", global_make_getter);
  ffi_register_builtin("ffi.MakeFieldSetter", global_make_setter);
  ffi_register_builtin("ffi._PyClassRegisterTypeAttrColumns", global_register_columns);
}
