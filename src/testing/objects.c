/*
 * objects.c -- registers the declarative fixture types (testing_objects.h) through the C API
 * and provides what all of them share: allocation, deleter, field getters/setters, creator and
 * shallow copy. The auto-generated __ffi_init__ lives in objects_init.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testing_objects.h"

/* ---- type lookup by index (for the shared deleter) ---- */

#define TESTING_MAX_TYPES 512
static const TestingTypeDef* g_defs[TESTING_MAX_TYPES];

static const TestingTypeDef* def_of(int32_t type_index) {
  int32_t slot = type_index - kTVMFFIDynObjectBegin;
  return slot >= 0 && slot < TESTING_MAX_TYPES ? g_defs[slot] : NULL;
}

/* ---- values ---- */

static void any_copy_owned(const TVMFFIAny* src, TVMFFIAny* dst) {
  *dst = *src;
  if (src->type_index >= kTVMFFIStaticObjectBegin && src->v_obj != NULL) {
    TVMFFIObjectIncRef(src->v_obj);
  }
}

static int convert_error(const TVMFFIAny* value, const char* expected) {
  TVMFFIByteArray actual = testing_type_key(value->type_index);
  return testing_raise("TypeError", "Cannot convert from type `%.*s` to `%s`", (int)actual.size,
                       actual.data, expected);
}

static bool is_str(int32_t t) {
  return t == kTVMFFISmallStr || t == kTVMFFIStr || t == kTVMFFIRawStr ||
         t == kTVMFFIByteArrayPtr;
}

/* ---- deleter, allocation ---- */

static void release_fields(const TestingTypeDef* def, TVMFFIObject* obj) {
  for (; def != NULL; def = def->parent) {
    for (int i = 0; i < def->num_fields; ++i) {
      const TestingFieldDef* f = &def->fields[i];
      if (testing_kind_is_any(f->kind)) {
        testing_release_value(TESTING_FIELD(obj, TVMFFIAny, f->offset));
      } else if (f->kind == TF_OBJ || f->kind == TF_OPT_OBJ) {
        TVMFFIObject** slot = TESTING_FIELD(obj, TVMFFIObject*, f->offset);
        if (*slot != NULL) TVMFFIObjectDecRef(*slot);
        *slot = NULL;
      }
    }
  }
}

static void object_deleter(void* self, int flags) {
  TVMFFIObject* obj = (TVMFFIObject*)self;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) release_fields(def_of(obj->type_index), obj);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free(obj);
}

TVMFFIObject* testing_object_new(const TestingTypeDef* def) {
  TVMFFIObject* obj = (TVMFFIObject*)calloc(1, (size_t)def->total_size);
  if (obj == NULL) {
    testing_raise("MemoryError", "cannot allocate a %s", def->key);
    return NULL;
  }
  obj->combined_ref_count = ((uint64_t)1 << 32) | 1; /* one strong + the shared weak ref */
  obj->type_index = def->type_index;
  obj->deleter = object_deleter;
  if (def->construct != NULL) def->construct(obj);
  return obj;
}

const char* testing_method_display(const TestingTypeDef* def, const char* method, char* buf,
                                   size_t cap) {
  const char* signature = "";
  for (int i = 0; i < def->num_methods; ++i) {
    if (strcmp(def->methods[i].name, method) == 0 && def->methods[i].signature != NULL) {
      signature = def->methods[i].signature;
    }
  }
  snprintf(buf, cap, "%s.%s%s", def->key, method, signature);
  return buf;
}

int testing_method_arg_error(const TestingTypeDef* def, const char* method, int index,
                             const char* expected, const TVMFFIAny* actual) {
  char name[512];
  TVMFFIByteArray key = testing_type_key(actual->type_index);
  return testing_raise("TypeError",
                       "Mismatched type on argument #%d when calling: `%s`. Expected `%s` but got "
                       "`%.*s`",
                       index, testing_method_display(def, method, name, sizeof(name)), expected,
                       (int)key.size, key.data);
}

int testing_method_arity(const TestingTypeDef* def, const char* method, int32_t num_args,
                         int32_t expected_args) {
  if (num_args == expected_args) return 0;
  char name[512];
  return testing_raise("TypeError",
                       "Mismatched number of arguments when calling: `%s`. Expected %d but got %d "
                       "arguments",
                       testing_method_display(def, method, name, sizeof(name)), (int)expected_args,
                       (int)num_args);
}

int testing_method_self(const TestingTypeDef* def, const char* method, const TVMFFIAny* args,
                        TVMFFIObject** self) {
  bool accepted = def->final ? args[0].type_index == def->type_index
                             : testing_is_instance(args[0].type_index, def->type_index);
  if (!accepted) return testing_method_arg_error(def, method, 0, def->key, &args[0]);
  *self = args[0].v_obj;
  return 0;
}

/* ---- getters (TVMFFIFieldGetter: owned result) ---- */

static int get_i64(void* addr, TVMFFIAny* r) {
  r->type_index = kTVMFFIInt;
  r->v_int64 = *(int64_t*)addr;
  return 0;
}
static int get_i32(void* addr, TVMFFIAny* r) {
  r->type_index = kTVMFFIInt;
  r->v_int64 = *(int32_t*)addr;
  return 0;
}
static int get_f64(void* addr, TVMFFIAny* r) {
  r->type_index = kTVMFFIFloat;
  r->v_float64 = *(double*)addr;
  return 0;
}
static int get_f32(void* addr, TVMFFIAny* r) {
  r->type_index = kTVMFFIFloat;
  r->v_float64 = *(float*)addr;
  return 0;
}
static int get_bool(void* addr, TVMFFIAny* r) {
  r->type_index = kTVMFFIBool;
  r->v_int64 = *(bool*)addr ? 1 : 0;
  return 0;
}
static int get_any(void* addr, TVMFFIAny* r) {
  any_copy_owned((const TVMFFIAny*)addr, r);
  return 0;
}
static int get_obj(void* addr, TVMFFIAny* r) {
  TVMFFIObject* obj = *(TVMFFIObject**)addr;
  if (obj == NULL) return 0; /* None */
  TVMFFIObjectIncRef(obj);
  r->type_index = obj->type_index;
  r->v_obj = obj;
  return 0;
}

static int get_device(void* addr, TVMFFIAny* r) {
  r->type_index = kTVMFFIDevice;
  r->v_device = *(DLDevice*)addr;
  return 0;
}
static int get_dtype(void* addr, TVMFFIAny* r) {
  r->type_index = kTVMFFIDataType;
  r->v_dtype = *(DLDataType*)addr;
  return 0;
}

static TVMFFIFieldGetter getter_of(TestingFieldKind kind) {
  switch (kind) {
    case TF_DEVICE: return get_device;
    case TF_DTYPE: return get_dtype;
    case TF_I64: return get_i64;
    case TF_I32: return get_i32;
    case TF_F64: return get_f64;
    case TF_F32: return get_f32;
    case TF_BOOL: return get_bool;
    case TF_STR:
    case TF_BYTES:
    case TF_ANY: return get_any;
    default: return get_obj;
  }
}

/* ---- setters: conversion with the reference's messages ---- */

static int32_t obj_key_index(const TestingFieldDef* f) {
  TVMFFIByteArray key = {f->obj_key, strlen(f->obj_key)};
  int32_t index = -1;
  if (TVMFFITypeKeyToIndex(&key, &index) != 0) return -1;
  return index;
}

/* Stores a value the field's converter made (owned; stolen). */
static int store_converted(const TestingFieldDef* f, void* addr, TVMFFIAny owned) {
  if (f->kind == TF_ANY) {
    testing_release_value((TVMFFIAny*)addr);
    *(TVMFFIAny*)addr = owned;
    return 0;
  }
  TVMFFIObject** slot = (TVMFFIObject**)addr;
  if (*slot != NULL) TVMFFIObjectDecRef(*slot);
  *slot = owned.type_index >= kTVMFFIStaticObjectBegin ? owned.v_obj : NULL;
  return 0;
}

static int set_at(const TestingFieldDef* f, void* addr, const TVMFFIAny* v) {
  int32_t t = v->type_index;
  if (f->convert != NULL) {
    TVMFFIAny owned;
    memset(&owned, 0, sizeof(owned));
    if (f->convert(v, &owned) != 0) return -1;
    return store_converted(f, addr, owned);
  }
  switch (f->kind) {
    case TF_I64:
    case TF_I32:
      if (t != kTVMFFIInt && t != kTVMFFIBool) return convert_error(v, "int");
      if (f->kind == TF_I64) *(int64_t*)addr = v->v_int64;
      else *(int32_t*)addr = (int32_t)v->v_int64;
      return 0;
    case TF_F64:
    case TF_F32: {
      double d;
      if (t == kTVMFFIFloat) d = v->v_float64;
      else if (t == kTVMFFIInt || t == kTVMFFIBool) d = (double)v->v_int64;
      else return convert_error(v, "float");
      if (f->kind == TF_F64) *(double*)addr = d;
      else *(float*)addr = (float)d;
      return 0;
    }
    case TF_BOOL:
      if (t != kTVMFFIInt && t != kTVMFFIBool) return convert_error(v, "bool");
      *(bool*)addr = v->v_int64 != 0;
      return 0;
    case TF_DEVICE:
      if (t != kTVMFFIDevice) return convert_error(v, "Device");
      *(DLDevice*)addr = v->v_device;
      return 0;
    case TF_DTYPE:
      if (t != kTVMFFIDataType) return convert_error(v, "DataType");
      *(DLDataType*)addr = v->v_dtype;
      return 0;
    case TF_STR:
    case TF_BYTES:
    case TF_ANY: {
      if (f->kind == TF_STR && !is_str(t)) return convert_error(v, "str");
      if (f->kind == TF_BYTES && t != kTVMFFIBytes && t != kTVMFFISmallBytes &&
          t != kTVMFFIByteArrayPtr) {
        return convert_error(v, "bytes");
      }
      TVMFFIAny owned;
      memset(&owned, 0, sizeof(owned));
      if (TVMFFIAnyViewToOwnedAny(v, &owned) != 0) return -1;
      testing_release_value((TVMFFIAny*)addr);
      *(TVMFFIAny*)addr = owned;
      return 0;
    }
    case TF_OBJ:
    case TF_OPT_OBJ: {
      TVMFFIObject* obj = NULL;
      if (t == kTVMFFINone) {
        if (f->kind == TF_OBJ) return convert_error(v, f->type_str ? f->type_str : f->obj_key);
      } else {
        int32_t want = obj_key_index(f);
        if (want < 0) return -1;
        if (t < kTVMFFIStaticObjectBegin || !testing_is_instance(t, want)) {
          return convert_error(v, f->type_str ? f->type_str : f->obj_key);
        }
        obj = v->v_obj;
        TVMFFIObjectIncRef(obj);
      }
      TVMFFIObject** slot = (TVMFFIObject**)addr;
      if (*slot != NULL) TVMFFIObjectDecRef(*slot);
      *slot = obj;
      return 0;
    }
  }
  return testing_raise("RuntimeError", "unknown field kind");
}

int testing_field_set(const TestingFieldDef* field, TVMFFIObject* obj, const TVMFFIAny* value) {
  return set_at(field, (char*)obj + field->offset, value);
}

/* Setter as a FunctionObj called with (OpaquePtr field_addr, value); self is the field. Used
 * only when the trampoline pool below is exhausted. */
static int field_setter_call(void* self, const TVMFFIAny* args, int32_t num_args,
                             TVMFFIAny* result) {
  (void)result;
  if (num_args != 2 || args[0].type_index != kTVMFFIOpaquePtr) {
    return testing_raise("TypeError", "field setter expects (field address, value)");
  }
  return set_at((const TestingFieldDef*)self, args[0].v_ptr, &args[1]);
}

/* Plain TVMFFIFieldSetters, as C++ fields register them (no SetterIsFunctionObj flag). A
 * value field's setter needs only its storage kind. */
#define TESTING_KIND_SETTER(K)                                    \
  static int set_##K(void* addr, const TVMFFIAny* v) {            \
    static const TestingFieldDef f = {.kind = K};                 \
    return set_at(&f, addr, v);                                   \
  }
TESTING_KIND_SETTER(TF_I64) TESTING_KIND_SETTER(TF_F64) TESTING_KIND_SETTER(TF_I32)
TESTING_KIND_SETTER(TF_F32) TESTING_KIND_SETTER(TF_BOOL) TESTING_KIND_SETTER(TF_STR)
TESTING_KIND_SETTER(TF_ANY) TESTING_KIND_SETTER(TF_DEVICE) TESTING_KIND_SETTER(TF_DTYPE)
TESTING_KIND_SETTER(TF_BYTES)

/* An object field's setter also checks the field's type key, which a plain setter is not
 * passed: each object field gets a trampoline of its own, bound to the field through a slot. */
#define TESTING_OBJ_SETTER(n)                                      \
  static const TestingFieldDef* g_obj_field_##n;                   \
  static int set_obj_##n(void* addr, const TVMFFIAny* v) {         \
    return set_at(g_obj_field_##n, addr, v);                       \
  }
#define TESTING_OBJ_SETTERS8(a, b, c, d, e, f, g, h)                                   \
  TESTING_OBJ_SETTER(a) TESTING_OBJ_SETTER(b) TESTING_OBJ_SETTER(c) TESTING_OBJ_SETTER(d) \
  TESTING_OBJ_SETTER(e) TESTING_OBJ_SETTER(f) TESTING_OBJ_SETTER(g) TESTING_OBJ_SETTER(h)
TESTING_OBJ_SETTERS8(0, 1, 2, 3, 4, 5, 6, 7)
TESTING_OBJ_SETTERS8(8, 9, 10, 11, 12, 13, 14, 15)
TESTING_OBJ_SETTERS8(16, 17, 18, 19, 20, 21, 22, 23)
TESTING_OBJ_SETTERS8(24, 25, 26, 27, 28, 29, 30, 31)
#define OBJ_SLOT(n) {&g_obj_field_##n, set_obj_##n}
static const struct {
  const TestingFieldDef** field;
  TVMFFIFieldSetter setter;
} kObjSetters[] = {
    OBJ_SLOT(0),  OBJ_SLOT(1),  OBJ_SLOT(2),  OBJ_SLOT(3),  OBJ_SLOT(4),  OBJ_SLOT(5),
    OBJ_SLOT(6),  OBJ_SLOT(7),  OBJ_SLOT(8),  OBJ_SLOT(9),  OBJ_SLOT(10), OBJ_SLOT(11),
    OBJ_SLOT(12), OBJ_SLOT(13), OBJ_SLOT(14), OBJ_SLOT(15), OBJ_SLOT(16), OBJ_SLOT(17),
    OBJ_SLOT(18), OBJ_SLOT(19), OBJ_SLOT(20), OBJ_SLOT(21), OBJ_SLOT(22), OBJ_SLOT(23),
    OBJ_SLOT(24), OBJ_SLOT(25), OBJ_SLOT(26), OBJ_SLOT(27), OBJ_SLOT(28), OBJ_SLOT(29),
    OBJ_SLOT(30), OBJ_SLOT(31),
};
static int g_num_obj_setters = 0;

/* The plain setter of a field, or NULL when none is left (the caller then uses a Function). */
static TVMFFIFieldSetter plain_setter_of(const TestingFieldDef* f) {
  /* a converting field needs its definition: a trampoline of its own, as object fields do */
  switch (f->convert != NULL ? TF_OBJ : f->kind) {
    case TF_I64: return set_TF_I64;
    case TF_F64: return set_TF_F64;
    case TF_I32: return set_TF_I32;
    case TF_F32: return set_TF_F32;
    case TF_BOOL: return set_TF_BOOL;
    case TF_STR: return set_TF_STR;
    case TF_ANY: return set_TF_ANY;
    case TF_DEVICE: return set_TF_DEVICE;
    case TF_DTYPE: return set_TF_DTYPE;
    case TF_BYTES: return set_TF_BYTES;
    case TF_OBJ:
    case TF_OPT_OBJ: break;
  }
  if (g_num_obj_setters >= (int)(sizeof(kObjSetters) / sizeof(kObjSetters[0]))) return NULL;
  *kObjSetters[g_num_obj_setters].field = f;
  return kObjSetters[g_num_obj_setters++].setter;
}

/* ---- metadata JSON ---- */

/* `{"type_schema":"<escaped schema>"[,extra]}`, malloc'ed. */
static char* metadata_json(const char* schema, const char* extra) {
  size_t n = 32 + (extra ? strlen(extra) : 0);
  for (const char* p = schema; *p; ++p) n += (*p == '"' || *p == '\\') ? 2 : 1;
  char* out = (char*)malloc(n);
  if (out == NULL) return NULL;
  char* w = out + sprintf(out, "{\"type_schema\":\"");
  for (const char* p = schema; *p; ++p) {
    if (*p == '"' || *p == '\\') *w++ = '\\';
    *w++ = *p;
  }
  sprintf(w, "\"%s%s}", extra ? "," : "", extra ? extra : "");
  return out;
}

static TVMFFIByteArray bytes_of(const char* s) {
  TVMFFIByteArray b = {s ? s : "", s ? strlen(s) : 0};
  return b;
}

/* ---- registration ---- */

static void report(const char* what, const char* key) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  fprintf(stderr, "libtvm_ffi_testing: %s of %s failed", what, key);
  if (err != NULL) {
    const TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
    fprintf(stderr, ": %.*s", (int)cell->message.size, cell->message.data);
    TVMFFIObjectDecRef(err);
  }
  fputc('\n', stderr);
}

static int make_default(const TestingFieldDef* f, TVMFFIAny* out) {
  memset(out, 0, sizeof(*out));
  switch (f->dkind) {
    case TD_INT:
      out->type_index = kTVMFFIInt;
      out->v_int64 = f->dint;
      return 0;
    case TD_FLOAT:
      out->type_index = kTVMFFIFloat;
      out->v_float64 = f->dfloat;
      return 0;
    case TD_STR: {
      TVMFFIAny view = testing_view_cstr(f->dstr);
      return TVMFFIAnyViewToOwnedAny(&view, out);
    }
    default:
      return 0; /* None */
  }
}

static int register_field(TestingTypeDef* def, const TestingFieldDef* f) {
  TVMFFIFieldInfo info;
  memset(&info, 0, sizeof(info));
  char* metadata = metadata_json(f->schema, f->extra_metadata);
  if (metadata == NULL) return testing_raise("MemoryError", "out of memory");
  info.name = bytes_of(f->name);
  info.doc = bytes_of(f->doc);
  info.metadata = bytes_of(metadata);
  info.flags = f->flags | (f->dkind != TD_NONE ? kTVMFFIFieldFlagBitMaskHasDefault : 0);
  static const int64_t sizes[] = {8, 8, 4, 4, 1, 16, 16, 8, 8, 8, 4, 16};
  static const int64_t aligns[] = {8, 8, 4, 4, 1, 8, 8, 8, 8, 4, 2, 8};
  info.size = sizes[f->kind];
  info.alignment = aligns[f->kind];
  info.offset = f->offset;
  info.getter = getter_of(f->kind);
  /* As the reference's C++ fields: String/Bytes are Any-like (-1), object refs ffi.Object. */
  static const int32_t static_types[] = {
      kTVMFFIInt,  kTVMFFIFloat,  kTVMFFIInt,    kTVMFFIFloat,  kTVMFFIBool,     kTVMFFIAny,
      kTVMFFIAny,  kTVMFFIObject, kTVMFFIObject, kTVMFFIDevice, kTVMFFIDataType, kTVMFFIAny};
  info.field_static_type_index = f->static_type != 0 ? f->static_type : static_types[f->kind];
  TVMFFIObjectHandle setter = NULL;
  TVMFFIFieldSetter plain = plain_setter_of(f);
  int rc = plain != NULL ? 0 : TVMFFIFunctionCreate((void*)f, field_setter_call, NULL, &setter);
  if (rc == 0) rc = make_default(f, &info.default_value_or_factory);
  if (rc == 0) {
    info.setter = plain != NULL ? (void*)plain : setter;
    if (plain == NULL) info.flags |= kTVMFFIFieldFlagBitSetterIsFunctionObj;
    rc = TVMFFITypeRegisterField(def->type_index, &info);
  }
  testing_release_value(&info.default_value_or_factory);
  if (setter != NULL) TVMFFIObjectDecRef(setter);
  free(metadata);
  return rc;
}

static int register_method_info(int32_t type_index, const char* name, const char* doc,
                                const char* schema, const char* extra, bool is_static,
                                TVMFFISafeCallType call, void* self) {
  TVMFFIObjectHandle func = NULL;
  if (TVMFFIFunctionCreate(self, call, NULL, &func) != 0) return -1;
  char* metadata = metadata_json(schema, extra);
  if (metadata == NULL) {
    TVMFFIObjectDecRef(func);
    return testing_raise("MemoryError", "out of memory");
  }
  TVMFFIMethodInfo info;
  memset(&info, 0, sizeof(info));
  info.name = bytes_of(name);
  info.doc = bytes_of(doc);
  info.metadata = bytes_of(metadata);
  info.flags = is_static ? kTVMFFIFieldFlagBitMaskIsStaticMethod : 0;
  info.method.type_index = kTVMFFIFunction;
  info.method.v_obj = (TVMFFIObject*)func;
  int rc = TVMFFITypeRegisterMethod(type_index, &info);
  free(metadata);
  TVMFFIObjectDecRef(func);
  return rc;
}

static int register_attr_func(int32_t type_index, const char* attr, TVMFFISafeCallType call,
                              void* self) {
  TVMFFIObjectHandle func = NULL;
  if (TVMFFIFunctionCreate(self, call, NULL, &func) != 0) return -1;
  TVMFFIByteArray name = bytes_of(attr);
  TVMFFIAny value;
  memset(&value, 0, sizeof(value));
  value.type_index = kTVMFFIFunction;
  value.v_obj = (TVMFFIObject*)func;
  int rc = TVMFFITypeRegisterAttr(type_index, &name, &value);
  TVMFFIObjectDecRef(func);
  return rc;
}

/* ---- shared type attributes ---- */

/* __ffi_new__(): an instance as the default constructor leaves it (zeroed fields). */
static int ffi_new_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)args;
  (void)num_args;
  TVMFFIObject* obj = testing_object_new((const TestingTypeDef*)self);
  if (obj == NULL) return -1;
  result->type_index = obj->type_index;
  result->v_obj = obj;
  return 0;
}

/* __ffi_shallow_copy__(obj): a new object whose fields share the originals' values. */
static int shallow_copy_call(void* self, const TVMFFIAny* args, int32_t num_args,
                             TVMFFIAny* result) {
  const TestingTypeDef* def = (const TestingTypeDef*)self;
  TVMFFIObject* src = NULL;
  if (testing_method_arity(def, "__ffi_shallow_copy__", num_args, 1) != 0 ||
      testing_method_self(def, "__ffi_shallow_copy__", args, &src) != 0) {
    return -1;
  }
  const TestingTypeDef* actual = def_of(src->type_index);
  if (actual == NULL) actual = def;
  TVMFFIObject* copy = testing_object_new(actual);
  if (copy == NULL) return -1;
  memcpy((char*)copy + sizeof(TVMFFIObject), (char*)src + sizeof(TVMFFIObject),
         (size_t)actual->total_size - sizeof(TVMFFIObject));
  for (const TestingTypeDef* d = actual; d != NULL; d = d->parent) {
    for (int i = 0; i < d->num_fields; ++i) {
      const TestingFieldDef* f = &d->fields[i];
      if (testing_kind_is_any(f->kind)) {
        TVMFFIAny* v = TESTING_FIELD(copy, TVMFFIAny, f->offset);
        if (v->type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectIncRef(v->v_obj);
      } else if (f->kind == TF_OBJ || f->kind == TF_OPT_OBJ) {
        TVMFFIObject* o = *TESTING_FIELD(copy, TVMFFIObject*, f->offset);
        if (o != NULL) TVMFFIObjectIncRef(o);
      }
    }
  }
  result->type_index = copy->type_index;
  result->v_obj = copy;
  return 0;
}

/* The metadata creator has no context argument, so it finds its type through this slot,
 * which registration sets while it registers each type (creators are per type below). */
#define TESTING_CREATOR(n)                                      \
  static const TestingTypeDef* g_creator_def_##n;               \
  static int creator_##n(TVMFFIObjectHandle* out) {             \
    TVMFFIObject* obj = testing_object_new(g_creator_def_##n);  \
    *out = obj;                                                 \
    return obj != NULL ? 0 : -1;                                \
  }
TESTING_CREATOR(0) TESTING_CREATOR(1) TESTING_CREATOR(2) TESTING_CREATOR(3) TESTING_CREATOR(4)
TESTING_CREATOR(5) TESTING_CREATOR(6) TESTING_CREATOR(7) TESTING_CREATOR(8) TESTING_CREATOR(9)
TESTING_CREATOR(10) TESTING_CREATOR(11) TESTING_CREATOR(12) TESTING_CREATOR(13)
TESTING_CREATOR(14) TESTING_CREATOR(15) TESTING_CREATOR(16) TESTING_CREATOR(17)
TESTING_CREATOR(18) TESTING_CREATOR(19) TESTING_CREATOR(20) TESTING_CREATOR(21)
TESTING_CREATOR(22) TESTING_CREATOR(23) TESTING_CREATOR(24) TESTING_CREATOR(25)
TESTING_CREATOR(26) TESTING_CREATOR(27) TESTING_CREATOR(28) TESTING_CREATOR(29)
TESTING_CREATOR(30) TESTING_CREATOR(31)
#define CREATOR_SLOT(n) {&g_creator_def_##n, creator_##n}
static const struct {
  const TestingTypeDef** def;
  TVMFFIObjectCreator creator;
} kCreators[] = {
    CREATOR_SLOT(0),  CREATOR_SLOT(1),  CREATOR_SLOT(2),  CREATOR_SLOT(3),  CREATOR_SLOT(4),
    CREATOR_SLOT(5),  CREATOR_SLOT(6),  CREATOR_SLOT(7),  CREATOR_SLOT(8),  CREATOR_SLOT(9),
    CREATOR_SLOT(10), CREATOR_SLOT(11), CREATOR_SLOT(12), CREATOR_SLOT(13), CREATOR_SLOT(14),
    CREATOR_SLOT(15), CREATOR_SLOT(16), CREATOR_SLOT(17), CREATOR_SLOT(18), CREATOR_SLOT(19),
    CREATOR_SLOT(20), CREATOR_SLOT(21), CREATOR_SLOT(22), CREATOR_SLOT(23), CREATOR_SLOT(24),
    CREATOR_SLOT(25), CREATOR_SLOT(26), CREATOR_SLOT(27), CREATOR_SLOT(28), CREATOR_SLOT(29),
    CREATOR_SLOT(30), CREATOR_SLOT(31),
};
static int g_num_creators = 0;

static int register_type(TestingTypeDef* def) {
  int32_t parent_index = def->parent != NULL ? def->parent->type_index : kTVMFFIObject;
  int32_t depth = def->parent != NULL ? TVMFFIGetTypeInfo(parent_index)->type_depth + 1 : 1;
  TVMFFIByteArray key = bytes_of(def->key);
  def->type_index =
      TVMFFITypeGetOrAllocIndex(&key, -1, depth, def->num_child_slots, 1, parent_index);
  if (def->type_index < 0) return -1;
  if (def->type_index - kTVMFFIDynObjectBegin < TESTING_MAX_TYPES) {
    g_defs[def->type_index - kTVMFFIDynObjectBegin] = def;
  }
  if (!def->reflect) return 0;
  for (int i = 0; i < def->num_fields; ++i) {
    if (register_field(def, &def->fields[i]) != 0) return -1;
  }
  /* The explicit constructor is the first method, as the reference's refl::ObjectDef puts it. */
  if (def->init == TI_EXPLICIT &&
      register_method_info(def->type_index, "__ffi_init__", def->init_doc, def->init_schema, NULL,
                           true, def->explicit_init, def) != 0) {
    return -1;
  }
  for (int i = 0; i < def->num_methods; ++i) {
    const TestingMethodDef* m = &def->methods[i];
    if (register_method_info(def->type_index, m->name, m->doc, m->schema, m->extra_metadata,
                             m->is_static, m->call, def) != 0) {
      return -1;
    }
  }
  TVMFFITypeMetadata meta;
  memset(&meta, 0, sizeof(meta));
  meta.total_size = def->total_size;
  meta.structural_eq_hash_kind = def->structural_kind;
  if (def->has_creator && g_num_creators < (int)(sizeof(kCreators) / sizeof(kCreators[0]))) {
    *kCreators[g_num_creators].def = def;
    meta.creator = kCreators[g_num_creators++].creator;
    if (register_attr_func(def->type_index, "__ffi_new__", ffi_new_call, def) != 0) return -1;
  }
  if (TVMFFITypeRegisterMetadata(def->type_index, &meta) != 0) return -1;
  if (def->copyable &&
      register_attr_func(def->type_index, "__ffi_shallow_copy__", shallow_copy_call, def) != 0) {
    return -1;
  }
  if (def->init == TI_EXPLICIT) {
    if (register_attr_func(def->type_index, "__ffi_init__", def->explicit_init, def) != 0) return -1;
  } else if (def->init == TI_AUTO) {
    /* As C++ libraries do: the runtime generates the KWARGS init from the reflected fields. */
    TVMFFIAny index = testing_view_int(def->type_index);
    TVMFFIAny ignored;
    memset(&ignored, 0, sizeof(ignored));
    if (testing_call_global("ffi._RegisterFFIInit", &index, 1, &ignored) != 0) return -1;
  }
  return 0;
}

static void register_types(TestingTypeDef* const* defs, int n) {
  for (int i = 0; i < n; ++i) {
    if (register_type(defs[i]) != 0) report("registration", defs[i]->key);
  }
}

void testing_register_object_types(void) {
  register_types(kTestingBasicTypes, kTestingNumBasicTypes);
  register_types(kTestingCxxTypes, kTestingNumCxxTypes);
  register_types(kTestingSchemaTypes, kTestingNumSchemaTypes);
}
