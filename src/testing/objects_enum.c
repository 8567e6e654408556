/*
 * objects_enum.c -- the enum fixtures (TESTING_FIXTURES.md 3.6): TestEnumVariant with two
 * entries made here the way C++ EnumDef makes them (members and the ffi.EnumState allocated by
 * this library, containers built through the runtime's globals, the state registered as the
 * `__ffi_enum__` type attribute), the payload enums TestCxxIntEnum / TestCxxStrEnum whose
 * members Python defines, TestCxxEnumHolder with a field of each, and
 * testing.enum_variant_get.
 */
#include <stdlib.h>
#include <string.h>

#include "testing_internal.h"

/* Bodies as the runtime lays them out (ffi.Enum / ffi.EnumState: 48 bytes each). */
typedef struct {
  TVMFFIObject header;
  int64_t int_index;
  TVMFFIAny str_index;
} EnumBody;

typedef struct {
  TVMFFIObject header;
  TVMFFIObject* entries;
  TVMFFIObject* indexes;
  TVMFFIObject* attrs;
} EnumStateBody;

typedef struct {
  TVMFFIObject header;
  TVMFFIObject* priority;
  TVMFFIObject* opcode;
} HolderBody;

enum { kVariant, kIntEnum, kStrEnum, kHolder, kNumTypes };
static int32_t g_index[kNumTypes];
static const char* const kKeys[kNumTypes] = {"testing.TestEnumVariant", "testing.TestCxxIntEnum",
                                             "testing.TestCxxStrEnum", "testing.TestCxxEnumHolder"};

static void release_object(TVMFFIObject** slot) {
  if (*slot != NULL) TVMFFIObjectDecRef(*slot);
  *slot = NULL;
}

static void release_any(TVMFFIAny* v) {
  if (v->type_index >= kTVMFFIStaticObjectBegin && v->v_obj != NULL) TVMFFIObjectDecRef(v->v_obj);
  memset(v, 0, sizeof(*v));
}

/* ---- allocation ---- */

static void enum_deleter(void* self, int flags) {
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) release_any(&((EnumBody*)self)->str_index);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free(self);
}

static void state_deleter(void* self, int flags) {
  EnumStateBody* s = (EnumStateBody*)self;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    release_object(&s->entries);
    release_object(&s->indexes);
    release_object(&s->attrs);
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free(self);
}

static void holder_deleter(void* self, int flags) {
  HolderBody* h = (HolderBody*)self;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    release_object(&h->priority);
    release_object(&h->opcode);
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free(self);
}

static TVMFFIObject* alloc_object(size_t size, int32_t type_index, void (*deleter)(void*, int)) {
  TVMFFIObject* obj = (TVMFFIObject*)calloc(1, size);
  if (obj == NULL) {
    testing_raise("MemoryError", "out of memory");
    return NULL;
  }
  obj->combined_ref_count = ((uint64_t)1 << 32) | 1; /* one strong + the shared weak ref */
  obj->type_index = type_index;
  obj->deleter = deleter;
  return obj;
}

/* A member of enum type t: int index and a copy of the str index (RawStr view, or NULL: ""). */
static TVMFFIObject* enum_new(int32_t t, int64_t int_index, const char* str_index) {
  EnumBody* e = (EnumBody*)alloc_object(sizeof(EnumBody), t, enum_deleter);
  if (e == NULL) return NULL;
  e->int_index = int_index;
  TVMFFIAny view = testing_view_cstr(str_index != NULL ? str_index : "");
  if (TVMFFIAnyViewToOwnedAny(&view, &e->str_index) != 0) {
    TVMFFIObjectDecRef(&e->header);
    return NULL;
  }
  return &e->header;
}

/* The metadata creators have no context: one per type. */
static int create_variant(TVMFFIObjectHandle* out) {
  return (*out = enum_new(g_index[kVariant], 0, NULL)) != NULL ? 0 : -1;
}
static int create_int_enum(TVMFFIObjectHandle* out) {
  return (*out = enum_new(g_index[kIntEnum], 0, NULL)) != NULL ? 0 : -1;
}
static int create_str_enum(TVMFFIObjectHandle* out) {
  return (*out = enum_new(g_index[kStrEnum], 0, NULL)) != NULL ? 0 : -1;
}
static int create_holder(TVMFFIObjectHandle* out) {
  return (*out = alloc_object(sizeof(HolderBody), g_index[kHolder], holder_deleter)) != NULL ? 0
                                                                                              : -1;
}
static const TVMFFIObjectCreator kCreators[kNumTypes] = {create_variant, create_int_enum,
                                                         create_str_enum, create_holder};

/* ---- type attributes (self = the kind of type, as an integer) ---- */

static int kind_of(void* self) { return (int)(intptr_t)self; }

static void ret_object(TVMFFIAny* result, TVMFFIObject* obj) {
  result->type_index = obj->type_index;
  result->v_obj = obj;
}

static int new_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)args;
  int kind = kind_of(self);
  if (num_args != 0) {
    return testing_raise("TypeError",
                         "Mismatched number of arguments when calling: `%s.__ffi_new__() -> "
                         "ffi.Object`. Expected 0 but got %d arguments",
                         kKeys[kind], (int)num_args);
  }
  TVMFFIObjectHandle obj = NULL;
  if (kCreators[kind](&obj) != 0) return -1;
  ret_object(result, (TVMFFIObject*)obj);
  return 0;
}

static int self_arg(int kind, const char* what, const TVMFFIAny* args, int32_t num_args,
                    TVMFFIObject** out) {
  if (num_args != 1) {
    return testing_raise("TypeError", "%s.%s expects 1 argument, got %d", kKeys[kind], what,
                         (int)num_args);
  }
  if (args[0].type_index < kTVMFFIStaticObjectBegin ||
      !testing_is_instance(args[0].type_index, g_index[kind])) {
    TVMFFIByteArray actual = testing_type_key(args[0].type_index);
    return testing_raise("TypeError", "Cannot cast from `%.*s` to `%s`", (int)actual.size,
                         actual.data, kKeys[kind]);
  }
  *out = args[0].v_obj;
  return 0;
}

/* __ffi_convert__: members of the type pass unchanged; nothing else converts. */
static int convert_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  TVMFFIObject* obj;
  if (self_arg(kind_of(self), "__ffi_convert__", args, num_args, &obj) != 0) return -1;
  TVMFFIObjectIncRef(obj);
  ret_object(result, obj);
  return 0;
}

static int shallow_copy_call(void* self, const TVMFFIAny* args, int32_t num_args,
                             TVMFFIAny* result) {
  int kind = kind_of(self);
  TVMFFIObject* src;
  if (self_arg(kind, "__ffi_shallow_copy__", args, num_args, &src) != 0) return -1;
  TVMFFIObjectHandle copy = NULL;
  if (kCreators[kind](&copy) != 0) return -1;
  if (kind == kHolder) {
    HolderBody *from = (HolderBody*)src, *to = (HolderBody*)copy;
    if ((to->priority = from->priority) != NULL) TVMFFIObjectIncRef(to->priority);
    if ((to->opcode = from->opcode) != NULL) TVMFFIObjectIncRef(to->opcode);
  } else {
    EnumBody *from = (EnumBody*)src, *to = (EnumBody*)copy;
    to->int_index = from->int_index;
    release_any(&to->str_index);
    if (TVMFFIAnyViewToOwnedAny(&from->str_index, &to->str_index) != 0) {
      TVMFFIObjectDecRef(copy);
      return -1;
    }
  }
  ret_object(result, (TVMFFIObject*)copy);
  return 0;
}

/* ---- TestCxxEnumHolder fields ---- */

static int get_object(void* addr, TVMFFIAny* out) {
  TVMFFIObject* obj = *(TVMFFIObject**)addr;
  memset(out, 0, sizeof(*out));
  if (obj != NULL) {
    TVMFFIObjectIncRef(obj);
    ret_object(out, obj);
  }
  return 0;
}

static int set_member(void* addr, const TVMFFIAny* v, int kind) {
  if (v->type_index < kTVMFFIStaticObjectBegin || !testing_is_instance(v->type_index, g_index[kind])) {
    TVMFFIByteArray actual = testing_type_key(v->type_index);
    return testing_raise("TypeError", "Cannot convert from type `%.*s` to `%s`", (int)actual.size,
                         actual.data, kKeys[kind]);
  }
  TVMFFIObjectIncRef(v->v_obj);
  release_object((TVMFFIObject**)addr);
  *(TVMFFIObject**)addr = v->v_obj;
  return 0;
}
static int set_priority(void* addr, const TVMFFIAny* v) { return set_member(addr, v, kIntEnum); }
static int set_opcode(void* addr, const TVMFFIAny* v) { return set_member(addr, v, kStrEnum); }

static int register_holder_field(const char* name, int64_t offset, const char* metadata,
                                 TVMFFIFieldSetter setter) {
  TVMFFIFieldInfo info;
  memset(&info, 0, sizeof(info));
  info.name.data = name;
  info.name.size = strlen(name);
  info.metadata.data = metadata;
  info.metadata.size = strlen(metadata);
  info.flags = kTVMFFIFieldFlagBitMaskWritable;
  info.size = 8;
  info.alignment = 8;
  info.offset = offset;
  info.getter = get_object;
  info.setter = (void*)setter;
  info.field_static_type_index = kTVMFFIObject;
  return TVMFFITypeRegisterField(g_index[kHolder], &info);
}

/* ---- registration ---- */

static int register_attr(int kind, const char* attr, TVMFFISafeCallType call) {
  TVMFFIObjectHandle func = NULL;
  if (TVMFFIFunctionCreate((void*)(intptr_t)kind, call, NULL, &func) != 0) return -1;
  TVMFFIByteArray name = {attr, strlen(attr)};
  TVMFFIAny value;
  memset(&value, 0, sizeof(value));
  value.type_index = kTVMFFIFunction;
  value.v_obj = (TVMFFIObject*)func;
  int rc = TVMFFITypeRegisterAttr(g_index[kind], &name, &value);
  TVMFFIObjectDecRef(func);
  return rc;
}

static int register_type(int kind, const char* parent_key, int32_t total_size, int32_t seq_kind) {
  int32_t parent = kTVMFFIObject;
  if (parent_key != NULL) {
    TVMFFIByteArray pkey = {parent_key, strlen(parent_key)};
    if (TVMFFITypeKeyToIndex(&pkey, &parent) != 0) return -1;
  }
  TVMFFIByteArray key = {kKeys[kind], strlen(kKeys[kind])};
  int32_t depth = TVMFFIGetTypeInfo(parent)->type_depth + 1;
  g_index[kind] = TVMFFITypeGetOrAllocIndex(&key, -1, depth, 0, 0, parent);
  TVMFFITypeMetadata meta;
  memset(&meta, 0, sizeof(meta));
  meta.creator = kCreators[kind];
  meta.total_size = total_size;
  meta.structural_eq_hash_kind = (TVMFFISEqHashKind)seq_kind;
  if (TVMFFITypeRegisterMetadata(g_index[kind], &meta) != 0) return -1;
  if (register_attr(kind, "__ffi_new__", new_call) != 0) return -1;
  if (kind != kHolder && register_attr(kind, "__ffi_convert__", convert_call) != 0) return -1;
  return register_attr(kind, "__ffi_shallow_copy__", shallow_copy_call);
}

/* ---- EnumDef: TestEnumVariant's entries, made as the C++ builder makes them ---- */

static int call_global(const char* name, TVMFFIAny a, TVMFFIAny b, TVMFFIAny c, int32_t n) {
  TVMFFIAny args[3] = {a, b, c}, ignored;
  memset(&ignored, 0, sizeof(ignored));
  int rc = testing_call_global(name, args, n, &ignored);
  release_any(&ignored);
  return rc;
}

/* The type's state, made and registered on first use (an EnumDef's EnsureState). */
static int ensure_state(int32_t type_index, EnumStateBody** out) {
  static const TVMFFIByteArray kAttr = {"__ffi_enum__", 12};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&kAttr);
  if (column != NULL && type_index >= column->begin_index &&
      type_index - column->begin_index < column->size &&
      column->data[type_index - column->begin_index].type_index >= kTVMFFIStaticObjectBegin) {
    *out = (EnumStateBody*)column->data[type_index - column->begin_index].v_obj;
    return 0;
  }
  TVMFFIByteArray state_key = {"ffi.EnumState", 13};
  int32_t state_index;
  if (TVMFFITypeKeyToIndex(&state_key, &state_index) != 0) return -1;
  EnumStateBody* s = (EnumStateBody*)alloc_object(sizeof(EnumStateBody), state_index, state_deleter);
  if (s == NULL) return -1;
  TVMFFIAny made[3];
  memset(made, 0, sizeof(made));
  int rc = testing_call_global("ffi.List", NULL, 0, &made[0]);
  if (rc == 0) rc = testing_call_global("ffi.Dict", NULL, 0, &made[1]);
  if (rc == 0) rc = testing_call_global("ffi.Dict", NULL, 0, &made[2]);
  s->entries = made[0].v_obj;
  s->indexes = made[1].v_obj;
  s->attrs = made[2].v_obj;
  TVMFFIAny value = testing_view_object_or_none(&s->header);
  if (rc == 0) rc = TVMFFITypeRegisterAttr(type_index, &kAttr, &value);
  TVMFFIObjectDecRef(&s->header); /* the type attribute keeps it */
  if (rc != 0) return -1;
  *out = s;
  return 0;
}

/* One entry: the member, its two indices, and attribute `code`. */
static int enum_def(int32_t type_index, const char* name, int64_t code) {
  EnumStateBody* state;
  if (ensure_state(type_index, &state) != 0) return -1;
  TVMFFIAny size;
  memset(&size, 0, sizeof(size));
  TVMFFIAny entries = testing_view_object_or_none(state->entries);
  if (testing_call_global("ffi.ListSize", &entries, 1, &size) != 0) return -1;
  TVMFFIObject* member = enum_new(type_index, size.v_int64, name);
  if (member == NULL) return -1;
  TVMFFIAny m = testing_view_object_or_none(member), none;
  memset(&none, 0, sizeof(none));
  TVMFFIAny indexes = testing_view_object_or_none(state->indexes);
  TVMFFIAny attrs = testing_view_object_or_none(state->attrs);
  TVMFFIAny column, attr_name = testing_view_cstr("code");
  memset(&column, 0, sizeof(column));
  int rc = call_global("ffi.ListAppend", entries, m, none, 2);
  if (rc == 0) rc = call_global("ffi.DictSetItem", indexes, testing_view_int(size.v_int64), m, 3);
  if (rc == 0) rc = call_global("ffi.DictSetItem", indexes, testing_view_cstr(name), m, 3);
  /* attrs["code"]: the existing column, or a new one stored first. */
  if (rc == 0) {
    TVMFFIAny get_args[2] = {attrs, attr_name};
    rc = testing_call_global("ffi.DictGetItemOrMissing", get_args, 2, &column);
  }
  if (rc == 0 && column.type_index != kTVMFFIDict) {
    release_any(&column);
    rc = testing_call_global("ffi.Dict", NULL, 0, &column);
    if (rc == 0) rc = call_global("ffi.DictSetItem", attrs, attr_name, column, 3);
  }
  if (rc == 0) rc = call_global("ffi.DictSetItem", column, m, testing_view_int(code), 3);
  release_any(&column);
  TVMFFIObjectDecRef(member);
  return rc;
}

/* ---- testing.enum_variant_get ---- */

static int variant_get_body(const TestingFixture* fx, const TVMFFIAny* args, TVMFFIAny* result) {
  TVMFFIByteArray name;
  if (testing_arg_str(fx, args, 0, &name) != 0) return -1;
  EnumStateBody* state;
  if (ensure_state(g_index[kVariant], &state) != 0) return -1;
  TVMFFIAny lookup[2] = {testing_view_object_or_none(state->indexes), args[0]};
  TVMFFIAny found;
  memset(&found, 0, sizeof(found));
  if (testing_call_global("ffi.DictGetItemOrMissing", lookup, 2, &found) != 0) return -1;
  if (found.type_index >= kTVMFFIStaticObjectBegin &&
      testing_is_instance(found.type_index, g_index[kVariant])) {
    *result = found;
    return 0;
  }
  release_any(&found);
  return testing_raise("ValueError", "Enum `%s` has no instance with index %.*s", kKeys[kVariant],
                       (int)name.size, name.data);
}

static const TestingFixture kVariantGet = {
    .name = "testing.enum_variant_get",
    .signature = "testing.enum_variant_get(0: str) -> ffi.Enum",
    .schema = SCHEMA_FN("{\"type\":\"ffi.Enum\"}", T_STR),
    .num_params = 1,
    .body = variant_get_body};

static int variant_get_call(void* self, const TVMFFIAny* args, int32_t num_args,
                            TVMFFIAny* result) {
  const TestingFixture* fx = (const TestingFixture*)self;
  if (num_args != fx->num_params) return testing_arity_mismatch(fx, num_args);
  return fx->body(fx, args, result);
}

static int register_variant_get(void) {
  static const char kMetadata[] =
      "{\"type_schema\":\"{\\\"type\\\":\\\"ffi.Function\\\",\\\"named_args\\\":{\\\"return\\\":"
      "[{\\\"type\\\":\\\"ffi.Enum\\\"}],\\\"params\\\":[{\\\"type\\\":\\\"ffi.String\\\"}]}}\"}";
  TVMFFIObjectHandle func = NULL;
  if (TVMFFIFunctionCreate((void*)&kVariantGet, variant_get_call, NULL, &func) != 0) return -1;
  TVMFFIMethodInfo info;
  memset(&info, 0, sizeof(info));
  info.name.data = kVariantGet.name;
  info.name.size = strlen(kVariantGet.name);
  info.metadata.data = kMetadata;
  info.metadata.size = sizeof(kMetadata) - 1;
  info.flags = kTVMFFIFieldFlagBitMaskIsStaticMethod;
  info.method.type_index = kTVMFFIFunction;
  info.method.v_obj = (TVMFFIObject*)func;
  int rc = TVMFFIFunctionSetGlobalFromMethodInfo(&info, 0);
  TVMFFIObjectDecRef(func);
  return rc;
}

int testing_register_enum_fixtures(void) {
  static const char kPriority[] =
      "{\"type_schema\":\"{\\\"type\\\":\\\"testing.TestCxxIntEnum\\\"}\"}";
  static const char kOpcode[] =
      "{\"type_schema\":\"{\\\"type\\\":\\\"testing.TestCxxStrEnum\\\"}\"}";
  const int32_t unique = kTVMFFISEqHashKindUniqueInstance;
  if (register_type(kVariant, "ffi.Enum", 48, unique) != 0 ||
      register_type(kIntEnum, "ffi.IntEnum", 48, unique) != 0 ||
      register_type(kStrEnum, "ffi.StrEnum", 48, unique) != 0 ||
      register_type(kHolder, NULL, 40, kTVMFFISEqHashKindUnsupported) != 0 ||
      register_holder_field("priority", offsetof(HolderBody, priority), kPriority, set_priority) != 0 ||
      register_holder_field("opcode", offsetof(HolderBody, opcode), kOpcode, set_opcode) != 0) {
    return -1;
  }
  TVMFFIAny holder = testing_view_int(g_index[kHolder]), ignored;
  memset(&ignored, 0, sizeof(ignored));
  if (testing_call_global("ffi._RegisterFFIInit", &holder, 1, &ignored) != 0) return -1;
  if (enum_def(g_index[kVariant], "Alpha", 10) != 0 || enum_def(g_index[kVariant], "Beta", 20) != 0) {
    return -1;
  }
  return register_variant_get();
}
