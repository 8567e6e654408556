/*
 * type_define.c -- the runtime's own object types, defined as a C++ library defines its types
 * (see type_define_internal.h).
 */
#include "type_define_internal.h"

#include <stdio.h>

static TVMFFIObject* new_function(int32_t type_index, const char* what, TVMFFISafeCallType fn) {
  TVMFFIObjectHandle f;
  if (TVMFFIFunctionCreate((void*)(intptr_t)type_index, fn, NULL, &f) != 0) {
    ffi_fatal("ffi_define_type", "function %s", what);
  }
  return (TVMFFIObject*)f;
}

static void register_attr(int32_t type_index, const char* attr, const TVMFFIAny* value) {
  TVMFFIByteArray name = {attr, strlen(attr)};
  if (TVMFFITypeRegisterAttr(type_index, &name, value) != 0) {
    ffi_fatal("ffi_define_attr_fn", "%s", attr);
  }
}

void ffi_define_attr_fn(int32_t type_index, const char* attr, TVMFFISafeCallType fn) {
  TVMFFIObject* f = new_function(type_index, attr, fn);
  TVMFFIAny value = ffi_any_from_object(f);
  register_attr(type_index, attr, &value);
  ffi_decref(f);
}

/* `__ffi_new__`: an empty instance from the type's native creator. */
static int creator_new_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)args;
  int32_t type_index = ffi_defined_type_of(self);
  if (ffi_check_type_member_args(type_index, "__ffi_new__() -> ffi.Object", num_args, 0) != 0) {
    return -1;
  }
  TVMFFIObjectHandle out;
  if (TVMFFIGetTypeInfo(type_index)->metadata->creator(&out) != 0) return -1;
  ffi_ret_object(result, (TVMFFIObject*)out);
  return 0;
}

int32_t ffi_define_type(const char* key, int32_t parent, TVMFFIObjectCreator creator,
                        int32_t total_size, int kind) {
  TVMFFIByteArray k = {key, strlen(key)};
  int32_t depth = TVMFFIGetTypeInfo(parent)->type_depth + 1;
  int32_t index = TVMFFITypeGetOrAllocIndex(&k, -1, depth, 0, 1, parent);
  TVMFFITypeMetadata md;
  memset(&md, 0, sizeof(md));
  md.creator = creator;
  md.total_size = total_size;
  md.structural_eq_hash_kind = (TVMFFISEqHashKind)kind;
  if (TVMFFITypeRegisterMetadata(index, &md) != 0) ffi_fatal("ffi_define_type", "metadata of %s", key);
  ffi_define_attr_fn(index, "__ffi_new__", creator_new_call);
  return index;
}

/* `{"type_schema":"<schema with its quotes escaped>"}` into buf: the metadata is JSON holding the
 * schema as a JSON string. */
static void schema_metadata(const char* schema, char* buf, size_t cap) {
  static const char kHead[] = "{\"type_schema\":\"";
  size_t n = sizeof(kHead) - 1;
  memcpy(buf, kHead, n);
  for (const char* c = schema; *c != '\0'; ++c) {
    if (n + 4 >= cap) ffi_fatal("ffi_define_field", "schema %s too long", schema);
    if (*c == '"' || *c == '\\') buf[n++] = '\\';
    buf[n++] = *c;
  }
  memcpy(buf + n, "\"}", 3);
}

void ffi_define_field(int32_t type_index, const FfiFieldDef* def) {
  TVMFFIFieldInfo f;
  memset(&f, 0, sizeof(f));
  f.name = (TVMFFIByteArray){def->name, strlen(def->name)};
  if (def->doc != NULL) f.doc = (TVMFFIByteArray){def->doc, strlen(def->doc)};
  f.flags = def->flags;
  f.size = def->size;
  f.alignment = def->size < 8 ? def->size : 8;
  f.offset = def->offset;
  f.getter = def->get;
  f.setter = (void*)def->set;
  f.default_value_or_factory = ffi_any_none();
  f.field_static_type_index = def->static_index;
  char metadata[512];
  schema_metadata(def->schema, metadata, sizeof(metadata));
  f.metadata = (TVMFFIByteArray){metadata, strlen(metadata)};
  if (TVMFFITypeRegisterField(type_index, &f) != 0) {
    ffi_fatal("ffi_define_field", "field %s", def->name);
  }
}

/* Registers the function f as method `name`; its metadata comes from the signature table. */
static void register_method(int32_t type_index, const char* name, TVMFFIObject* f, bool is_static,
                            const char* doc) {
  TVMFFIMethodInfo m;
  memset(&m, 0, sizeof(m));
  m.name = (TVMFFIByteArray){name, strlen(name)};
  if (doc != NULL) m.doc = (TVMFFIByteArray){doc, strlen(doc)};
  m.flags = is_static ? kTVMFFIFieldFlagBitMaskIsStaticMethod : 0;
  m.method = ffi_any_from_object(f);
  TVMFFIByteArray key = ffi_type_key_of(type_index);
  char qualified[128];
  snprintf(qualified, sizeof(qualified), "%.*s.%s", (int)key.size, key.data, name);
  const FfiBuiltinSignature* sig = ffi_builtin_signature(qualified);
  if (sig != NULL) m.metadata = (TVMFFIByteArray){sig->metadata, strlen(sig->metadata)};
  if (TVMFFITypeRegisterMethod(type_index, &m) != 0) ffi_fatal("ffi_define_method", "%s", name);
}

void ffi_define_method(int32_t type_index, const char* name, TVMFFISafeCallType fn, bool is_static,
                       const char* doc) {
  TVMFFIObject* f = new_function(type_index, name, fn);
  register_method(type_index, name, f, is_static, doc);
  ffi_decref(f);
}

void ffi_define_init(int32_t type_index, TVMFFISafeCallType fn, const char* doc) {
  TVMFFIObject* f = new_function(type_index, "__ffi_init__", fn);
  register_method(type_index, "__ffi_init__", f, true, doc);
  TVMFFIAny value = ffi_any_from_object(f);
  register_attr(type_index, "__ffi_init__", &value);
  ffi_decref(f);
}

/* ---- field accessors for the common layouts ---- */

static int not_an_int(const TVMFFIAny* v) {
  TVMFFIByteArray k = ffi_type_key_of(v->type_index);
  return ffi_raise("TypeError", "Cannot convert from type `%.*s` to `int`", (int)k.size, k.data);
}

int ffi_field_get_i32(void* addr, TVMFFIAny* out) {
  ffi_ret_int(out, *(int32_t*)addr);
  return 0;
}

int ffi_field_set_i32(void* addr, const TVMFFIAny* v) {
  if (v->type_index != kTVMFFIInt && v->type_index != kTVMFFIBool) return not_an_int(v);
  *(int32_t*)addr = (int32_t)v->v_int64;
  return 0;
}

int ffi_field_get_i64(void* addr, TVMFFIAny* out) {
  ffi_ret_int(out, *(int64_t*)addr);
  return 0;
}

int ffi_field_set_i64(void* addr, const TVMFFIAny* v) {
  if (v->type_index != kTVMFFIInt && v->type_index != kTVMFFIBool) return not_an_int(v);
  *(int64_t*)addr = v->v_int64;
  return 0;
}

int ffi_field_get_any(void* addr, TVMFFIAny* out) {
  return TVMFFIAnyViewToOwnedAny((TVMFFIAny*)addr, out);
}

int ffi_field_set_any(void* addr, const TVMFFIAny* v) {
  TVMFFIAny owned;
  if (TVMFFIAnyViewToOwnedAny(v, &owned) != 0) return -1;
  ffi_any_release((TVMFFIAny*)addr);
  *(TVMFFIAny*)addr = owned;
  return 0;
}

int ffi_field_get_obj(void* addr, TVMFFIAny* out) {
  TVMFFIObject* obj = *(TVMFFIObject**)addr;
  *out = ffi_any_none();
  if (obj != NULL) {
    ffi_incref(obj);
    *out = ffi_any_from_object(obj);
  }
  return 0;
}
