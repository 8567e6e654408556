/*
 * enum.c -- the enum object types (spec DATACLASSES.md section 6, ABI.md section 2).
 *
 * ffi.Enum members are singletons: a body of `_int_index` (int64 @24) and `_str_index`
 * (String @32); ffi.IntEnum / ffi.StrEnum expose one of them again as `value`. The members of
 * an enum type live in one ffi.EnumState registered as that type's `__ffi_enum__` attribute
 * (by C++ EnumDef, by Python enum classes): `entries` in registration order, `indexes` mapping
 * both canonical indices to the member, `attrs` holding extensible per-member columns.
 * The state is plain data built from List/Dict, so any library can fill it in place.
 */
#include "enum_internal.h"

#include "structural/graph_util.h"
#include "type_define_internal.h"

typedef struct {
  TVMFFIObject header;
  TVMFFIObject* entries; /* ffi.List of members */
  TVMFFIObject* indexes; /* ffi.Dict: int index -> member, str index -> member */
  TVMFFIObject* attrs;   /* ffi.Dict: attr name -> ffi.Dict(member -> value) */
} EnumStateObject;

typedef struct {
  TVMFFIObject header;
  int64_t int_index;
  TVMFFIAny str_index; /* an owned string (SmallStr or Str) */
} EnumObject;

_Static_assert(sizeof(EnumStateObject) == 48 && offsetof(EnumStateObject, attrs) == 40,
               "ffi.EnumState layout");
_Static_assert(sizeof(EnumObject) == 48 && offsetof(EnumObject, int_index) == 24 &&
                   offsetof(EnumObject, str_index) == 32,
               "ffi.Enum layout");

static int32_t g_state_index = -1;
static int32_t g_enum_index = -1;
static int32_t g_int_enum_index = -1;
static int32_t g_str_enum_index = -1;

/* Field type schemas (JSON). */
#define J_OBJECT "{\"type\":\"ffi.Object\"}"
#define J_ANY "{\"type\":\"Any\"}"
#define J_STR "{\"type\":\"ffi.String\"}"
#define J_INT "{\"type\":\"int\"}"

/* ---- objects ---- */

static void state_destroy(void* self) {
  EnumStateObject* s = (EnumStateObject*)self;
  TVMFFIObject* parts[3] = {s->entries, s->indexes, s->attrs};
  for (int i = 0; i < 3; ++i) {
    if (parts[i] != NULL) ffi_decref_nested(parts[i]);
  }
}
FFI_DEFINE_DELETER(state_deleter, state_destroy)

static void enum_destroy(void* self) { ffi_any_release_nested(&((EnumObject*)self)->str_index); }
FFI_DEFINE_DELETER(enum_deleter, enum_destroy)

/* A state with the given parts (each retained), or fresh empty containers where NULL. */
static int state_new(TVMFFIObject* entries, TVMFFIObject* indexes, TVMFFIObject* attrs,
                     TVMFFIObject** out) {
  EnumStateObject* s =
      (EnumStateObject*)ffi_object_alloc(sizeof(EnumStateObject), g_state_index, state_deleter);
  if (s == NULL) return -1;
  int rc = 0;
  if (entries != NULL) ffi_incref(s->entries = entries);
  else rc = ffi_list_new_views(NULL, 0, &s->entries);
  if (rc == 0 && indexes != NULL) ffi_incref(s->indexes = indexes);
  else if (rc == 0) rc = ffi_map_new_empty(kTVMFFIDict, &s->indexes);
  if (rc == 0 && attrs != NULL) ffi_incref(s->attrs = attrs);
  else if (rc == 0) rc = ffi_map_new_empty(kTVMFFIDict, &s->attrs);
  if (rc != 0) {
    ffi_decref(&s->header);
    return -1;
  }
  *out = &s->header;
  return 0;
}

/* A member of type t with the given indices (str_index is copied). */
static int enum_new(int32_t t, int64_t int_index, const TVMFFIAny* str_index, TVMFFIObject** out) {
  EnumObject* e = (EnumObject*)ffi_object_alloc(sizeof(EnumObject), t, enum_deleter);
  if (e == NULL) return -1;
  e->int_index = int_index;
  if (str_index != NULL) {
    e->str_index = ffi_any_retain(str_index);
  } else if (ffi_string_make("", 0, 0, &e->str_index) != 0) {
    ffi_decref(&e->header);
    return -1;
  }
  *out = &e->header;
  return 0;
}

static int state_create(TVMFFIObjectHandle* out) {
  return state_new(NULL, NULL, NULL, (TVMFFIObject**)out);
}
static int enum_create(TVMFFIObjectHandle* out) {
  return enum_new(g_enum_index, 0, NULL, (TVMFFIObject**)out);
}
static int int_enum_create(TVMFFIObjectHandle* out) {
  return enum_new(g_int_enum_index, 0, NULL, (TVMFFIObject**)out);
}
static int str_enum_create(TVMFFIObjectHandle* out) {
  return enum_new(g_str_enum_index, 0, NULL, (TVMFFIObject**)out);
}

/* ---- fields ---- */

static int get_object(void* addr, TVMFFIAny* out) {
  TVMFFIObject* obj = *(TVMFFIObject**)addr;
  if (obj != NULL) ffi_incref(obj);
  *out = ffi_any_from_object(obj);
  return 0;
}

static int cannot_convert(const TVMFFIAny* v, const char* to) {
  TVMFFIByteArray k = ffi_type_key_of(v->type_index);
  return ffi_raise("TypeError", "Cannot convert from type `%.*s` to `%s`", (int)k.size, k.data, to);
}

static int set_container(void* addr, const TVMFFIAny* v, int32_t want, const char* name) {
  if (v->type_index != want) return cannot_convert(v, name);
  TVMFFIObject* old = *(TVMFFIObject**)addr;
  ffi_incref(v->v_obj);
  *(TVMFFIObject**)addr = v->v_obj;
  if (old != NULL) ffi_decref(old);
  return 0;
}
static int set_list(void* addr, const TVMFFIAny* v) {
  return set_container(addr, v, kTVMFFIList, "List<ObjectRef>");
}
static int set_dict(void* addr, const TVMFFIAny* v) {
  return set_container(addr, v, kTVMFFIDict, "Dict");
}

static int get_str(void* addr, TVMFFIAny* out) {
  *out = ffi_any_retain((const TVMFFIAny*)addr);
  return 0;
}
static int set_str(void* addr, const TVMFFIAny* v) {
  TVMFFIByteArray s;
  if (ffi_small_len_corrupt(v) || !ffi_string_view(v, &s) || v->type_index == kTVMFFIBytes ||
      v->type_index == kTVMFFISmallBytes || v->type_index == kTVMFFIByteArrayPtr) {
    return cannot_convert(v, "str");
  }
  TVMFFIAny owned;
  if (ffi_string_make(s.data, s.size, 0, &owned) != 0) return -1;
  ffi_any_release((TVMFFIAny*)addr);
  *(TVMFFIAny*)addr = owned;
  return 0;
}

/* ---- type attributes and methods (self = the type index they belong to) ---- */

/* ffi.EnumState's `__ffi_init__()`: an empty state. */
static int state_init_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self, (void)args;
  if (ffi_check_num_args("ffi.EnumState.__ffi_init__", num_args, 0) != 0) return -1;
  TVMFFIObject* obj;
  if (state_new(NULL, NULL, NULL, &obj) != 0) return -1;
  ffi_ret_object(result, obj);
  return 0;
}

static int shallow_copy_call(void* self, const TVMFFIAny* args, int32_t num_args,
                             TVMFFIAny* result) {
  int32_t t = ffi_defined_type_of(self);
  TVMFFIObject* src;
  if (ffi_check_type_member_args(t, "__ffi_shallow_copy__", num_args, 1) != 0) return -1;
  if (ffi_arg_object("__ffi_shallow_copy__", args, 0, t, &src) != 0) return -1;
  TVMFFIObject* copy;
  int rc;
  if (t == g_state_index) {
    EnumStateObject* s = (EnumStateObject*)src;
    rc = state_new(s->entries, s->indexes, s->attrs, &copy);
  } else {
    EnumObject* e = (EnumObject*)src;
    rc = enum_new(src->type_index, e->int_index, &e->str_index, &copy);
  }
  if (rc != 0) return -1;
  ffi_ret_object(result, copy);
  return 0;
}

/* An enum type: 48-byte objects (both layouts) with a shallow copy. */
static int32_t define_type(const char* key, int32_t parent, TVMFFIObjectCreator creator, int kind) {
  int32_t t = ffi_define_type(key, parent, creator, 48, kind);
  ffi_define_attr_fn(t, "__ffi_shallow_copy__", shallow_copy_call);
  return t;
}

void ffi_register_enum_types(void) {
  const int unique = kTVMFFISEqHashKindUniqueInstance;
  const int64_t no_init = kTVMFFIFieldFlagBitMaskInitOff;
  const int64_t alias = no_init | kTVMFFIFieldFlagBitMaskSEqHashIgnore;

  g_state_index = define_type("ffi.EnumState", kTVMFFIObject, state_create, 0);
  ffi_define_field(g_state_index, &(FfiFieldDef){
      .name = "entries", .doc = "The members in registration order.",
      .schema = "{\"type\":\"ffi.List\",\"args\":[" J_OBJECT "]}", .flags = no_init,
      .offset = offsetof(EnumStateObject, entries), .size = 8, .get = get_object,
      .set = set_list, .static_index = kTVMFFIList});
  ffi_define_field(g_state_index, &(FfiFieldDef){
      .name = "indexes", .doc = "Each member under its int and its str index.",
      .schema = "{\"type\":\"ffi.Dict\",\"args\":[" J_ANY "," J_OBJECT "]}", .flags = no_init,
      .offset = offsetof(EnumStateObject, indexes), .size = 8, .get = get_object,
      .set = set_dict, .static_index = kTVMFFIObject});
  ffi_define_field(g_state_index, &(FfiFieldDef){
      .name = "attrs", .doc = "Per-member attribute columns, by attribute name.",
      .schema = "{\"type\":\"ffi.Dict\",\"args\":[" J_STR ",{\"type\":\"ffi.Dict\",\"args\":["
                J_OBJECT "," J_ANY "]}]}",
      .flags = no_init, .offset = offsetof(EnumStateObject, attrs), .size = 8, .get = get_object,
      .set = set_dict, .static_index = kTVMFFIObject});
  ffi_define_init(g_state_index, state_init_call, NULL);

  g_enum_index = define_type("ffi.Enum", kTVMFFIObject, enum_create, unique);
  ffi_define_field(g_enum_index, &(FfiFieldDef){
      .name = "_int_index", .doc = "Canonical integer index.", .schema = J_INT,
      .flags = kTVMFFIFieldFlagBitMaskSEqHashIgnore, .offset = offsetof(EnumObject, int_index),
      .size = 8, .get = ffi_field_get_i64, .set = ffi_field_set_i64, .static_index = kTVMFFIInt});
  ffi_define_field(g_enum_index, &(FfiFieldDef){
      .name = "_str_index", .doc = "Canonical string index.", .schema = J_STR,
      .offset = offsetof(EnumObject, str_index), .size = 16, .get = get_str, .set = set_str,
      .static_index = -1});

  g_int_enum_index = define_type("ffi.IntEnum", g_enum_index, int_enum_create, unique);
  ffi_define_field(g_int_enum_index, &(FfiFieldDef){
      .name = "value", .doc = "Canonical integer index.", .schema = J_INT, .flags = alias,
      .offset = offsetof(EnumObject, int_index), .size = 8, .get = ffi_field_get_i64,
      .set = ffi_field_set_i64, .static_index = kTVMFFIInt});
  ffi_register_convert_attr(g_int_enum_index);

  g_str_enum_index = define_type("ffi.StrEnum", g_enum_index, str_enum_create, unique);
  ffi_define_field(g_str_enum_index, &(FfiFieldDef){
      .name = "value", .doc = "Canonical string index.", .schema = J_STR, .flags = alias,
      .offset = offsetof(EnumObject, str_index), .size = 16, .get = get_str, .set = set_str,
      .static_index = -1});
  ffi_register_convert_attr(g_str_enum_index);
}

/* ---- what the structural services ask ---- */

bool ffi_enum_is_enum_type(int32_t type_index) {
  return g_enum_index >= 0 && type_index >= kTVMFFIDynObjectBegin &&
         ffi_type_is_instance(type_index, g_enum_index);
}

TVMFFIByteArray ffi_enum_str_index(TVMFFIObject* member) {
  TVMFFIByteArray s = {"", 0};
  ffi_string_view(&((EnumObject*)member)->str_index, &s);
  return s;
}

int ffi_enum_json_data(TVMFFIObject* member, TVMFFIAny* out) {
  EnumObject* e = (EnumObject*)member;
  if (ffi_type_is_instance(member->type_index, g_int_enum_index)) {
    ffi_ret_int(out, e->int_index);
    return 0;
  }
  *out = ffi_any_retain(&e->str_index);
  return 0;
}

int ffi_enum_from_json_data(int32_t type_index, const TVMFFIAny* data, TVMFFIAny* out) {
  bool by_int = ffi_type_is_instance(type_index, g_int_enum_index);
  if (by_int && data->type_index != kTVMFFIInt) return cannot_convert(data, "int");
  if (!by_int && !ffi_is_str(data->type_index)) return cannot_convert(data, "str");
  const TVMFFIAny* state = ffi_type_attr(type_index, "__ffi_enum__");
  if (state != NULL && state->type_index == g_state_index) {
    const TVMFFIAny* member = ffi_map_lookup(((EnumStateObject*)state->v_obj)->indexes, data);
    if (member != NULL) {
      *out = ffi_any_retain(member);
      return 0;
    }
  }
  TVMFFIByteArray key = ffi_type_key_of(type_index);
  if (by_int) {
    return ffi_raise("ValueError", "Enum `%.*s` has no instance with index %lld", (int)key.size,
                     key.data, (long long)data->v_int64);
  }
  TVMFFIByteArray s;
  ffi_string_view(data, &s);
  return ffi_raise("ValueError", "Enum `%.*s` has no instance with index %.*s", (int)key.size,
                   key.data, (int)s.size, s.data);
}
