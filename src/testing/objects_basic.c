/*
 * objects_basic.c -- basic, compare/hash and unregistered fixture types
 * (TESTING_FIXTURES.md 3.2, 3.5, 3.7): fields, methods and hooks as the reference registers them.
 */
#include <string.h>

#include "testing_objects.h"

#define RW kTVMFFIFieldFlagBitMaskWritable
#define T_FLOAT "{\"type\":\"float\"}"
#define T_TYPE(key) "{\"type\":\"" key "\"}"
#define T_OPT(t) "{\"type\":\"Optional\",\"args\":[" t "]}"
#define T_MAP_ANY_ANY "{\"type\":\"ffi.Map\",\"args\":[" T_ANY "," T_ANY "]}"
#define INIT_SCHEMA(params) SCHEMA_FN(T_OBJECT, params)

int testing_explicit_init_call(void* self, const TVMFFIAny* args, int32_t num_args,
                               TVMFFIAny* result); /* objects_init.c */

static int ret_int(TVMFFIAny* result, int64_t v) {
  testing_ret_int(result, v);
  return 0;
}

/* Reads an int argument of a method for messages naming `method`. */
static int int_arg(const TestingTypeDef* def, const char* method, const TVMFFIAny* args, int i,
                   int64_t* out) {
  if (args[i].type_index == kTVMFFIInt || args[i].type_index == kTVMFFIBool) {
    *out = args[i].v_int64;
    return 0;
  }
  return testing_method_arg_error(def, method, i, "int", &args[i]);
}

/* ---- TestObjectBase / TestObjectDerived / TestObjectPtrHolder ---- */

static TestingTypeDef kObjectBase;

static int object_base_add_i64(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {
  TVMFFIObject* obj;
  int64_t other = 0;
  if (testing_method_arity(&kObjectBase, "add_i64", n, 2) != 0) return -1;
  if (int_arg(&kObjectBase, "add_i64", args, 1, &other) != 0) return -1;
  if (testing_method_self(&kObjectBase, "add_i64", args, &obj) != 0) return -1;
  (void)self;
  return ret_int(r, *TESTING_FIELD(obj, int64_t, 24) + other);
}

static const TestingFieldDef kObjectBaseFields[] = {
    {.name = "v_i64", .kind = TF_I64, .offset = 24, .flags = RW, .doc = "i64 field",
     .schema = T_INT, .dkind = TD_INT, .dint = 10},
    {.name = "v_f64", .kind = TF_F64, .offset = 32, .flags = 0, .schema = T_FLOAT,
     .dkind = TD_FLOAT, .dfloat = 10.0},
    {.name = "v_str", .kind = TF_STR, .offset = 40, .flags = RW, .schema = T_STR,
     .dkind = TD_STR, .dstr = "hello"},
};
static const TestingMethodDef kObjectBaseMethods[] = {
    {.name = "add_i64", .doc = "add_i64 method",
     .signature = "(0: testing.TestObjectBase, 1: int) -> int",
     .schema = SCHEMA_FN(T_INT, T_TYPE("testing.TestObjectBase") "," T_INT),
     .call = object_base_add_i64},
};
static TestingTypeDef kObjectBase = {
    .key = "testing.TestObjectBase", .num_child_slots = 1, .total_size = 56,
    .fields = kObjectBaseFields, .num_fields = 3, .methods = kObjectBaseMethods, .num_methods = 1,
    .has_creator = true, .copyable = true, .init = TI_AUTO, .reflect = true};

static const TestingFieldDef kObjectDerivedFields[] = {
    {.name = "v_map", .kind = TF_OBJ, .offset = 56, .flags = RW, .schema = T_MAP_ANY_ANY,
     .obj_key = "ffi.Map", .type_str = "Map<Any, Any>"},
    {.name = "v_array", .kind = TF_OBJ, .offset = 64, .flags = RW, .schema = T_ARRAY_ANY,
     .obj_key = "ffi.Array", .type_str = "Array<Any>", .static_type = kTVMFFIArray},
};
static TestingTypeDef kObjectDerived = {
    .key = "testing.TestObjectDerived", .parent = &kObjectBase, .total_size = 72, .final = true,
    .fields = kObjectDerivedFields, .num_fields = 2, .has_creator = true, .copyable = true,
    .init = TI_AUTO, .reflect = true};

static const TestingFieldDef kPtrHolderFields[] = {
    {.name = "value", .kind = TF_OBJ, .offset = 24, .flags = RW,
     .schema = T_TYPE("testing.TestObjectBase"), .obj_key = "testing.TestObjectBase"},
    {.name = "optional_value", .kind = TF_OPT_OBJ, .offset = 32, .flags = RW,
     .schema = T_OPT(T_TYPE("testing.TestObjectBase")), .obj_key = "testing.TestObjectBase",
     .dkind = TD_NULL},
};
static TestingTypeDef kPtrHolder = {
    .key = "testing.TestObjectPtrHolder", .total_size = 40, .fields = kPtrHolderFields,
    .num_fields = 2, .has_creator = true, .copyable = true, .init = TI_AUTO, .reflect = true};

/* ---- TestIntPair / TestNonCopyable ---- */

static TestingTypeDef kIntPair;

static int int_pair_sum(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {
  TVMFFIObject* obj;
  (void)self;
  if (testing_method_arity(&kIntPair, "sum", n, 1) != 0 ||
      testing_method_self(&kIntPair, "sum", args, &obj) != 0) {
    return -1;
  }
  return ret_int(r, *TESTING_FIELD(obj, int64_t, 24) + *TESTING_FIELD(obj, int64_t, 32));
}

/* __ffi_convert__: accepts a TestIntPair (or subtype) and returns it. */
static int int_pair_convert(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {
  (void)self;
  if (n != 1) return testing_raise("TypeError", "__ffi_convert__ expects 1 argument");
  if (!testing_is_instance(args[0].type_index, kIntPair.type_index)) {
    TVMFFIByteArray actual = testing_type_key(args[0].type_index);
    return testing_raise("TypeError", "Cannot cast from `%.*s` to `testing.TestIntPair`",
                         (int)actual.size, actual.data);
  }
  return TVMFFIAnyViewToOwnedAny(&args[0], r);
}

static const TestingFieldDef kIntPairFields[] = {
    {.name = "a", .kind = TF_I64, .offset = 24, .doc = "Field `a`", .schema = T_INT},
    {.name = "b", .kind = TF_I64, .offset = 32, .doc = "Field `b`", .schema = T_INT},
};
static const TestingMethodDef kIntPairMethods[] = {
    {.name = "sum", .doc = "Method to compute sum of a and b",
     .signature = "(0: testing.TestIntPair) -> int",
     .schema = SCHEMA_FN(T_INT, T_TYPE("testing.TestIntPair")), .call = int_pair_sum},
};
static TestingTypeDef kIntPair = {
    .key = "testing.TestIntPair", .total_size = 40, .fields = kIntPairFields, .num_fields = 2,
    .methods = kIntPairMethods, .num_methods = 1, .has_creator = true, .copyable = true,
    .init = TI_EXPLICIT, .explicit_init = testing_explicit_init_call,
    .init_schema = INIT_SCHEMA(T_INT "," T_INT), .reflect = true, .final = true};

static const TestingFieldDef kNonCopyableFields[] = {
    {.name = "value", .kind = TF_I64, .offset = 24, .schema = T_INT},
};
static TestingTypeDef kNonCopyable = {
    .key = "testing.TestNonCopyable", .total_size = 32, .fields = kNonCopyableFields,
    .num_fields = 1, .init = TI_EXPLICIT, .explicit_init = testing_explicit_init_call,
    .init_schema = INIT_SCHEMA(T_INT), .reflect = true};

/* Declared by the reference but never reflected. */
static TestingTypeDef kFrozenCxx = {.key = "testing.TestFrozenCxx", .total_size = 32,
                                    .final = true};

/* ---- compare / hash fixtures ---- */

#define KEY_NAME_FIELDS(second)                                                     \
  {.name = "key", .kind = TF_I64, .offset = 24, .schema = T_INT},                   \
  {.name = second, .kind = TF_STR, .offset = 32, .schema = T_STR}

static const TestingFieldDef kCompareFields[] = {
    KEY_NAME_FIELDS("name"),
    {.name = "ignored_field", .kind = TF_I64, .offset = 48,
     .flags = kTVMFFIFieldFlagBitMaskCompareOff, .schema = T_INT},
};
static const TestingFieldDef kHashFields[] = {
    KEY_NAME_FIELDS("name"),
    {.name = "hash_ignored", .kind = TF_I64, .offset = 48, .flags = kTVMFFIFieldFlagBitMaskHashOff,
     .schema = T_INT},
};
static const TestingFieldDef kKeyLabelFields[] = {KEY_NAME_FIELDS("label")};

#define KEYED_TYPE(var, key_str, field_table, nfields, size, schema)                           \
  static TestingTypeDef var = {.key = key_str, .total_size = size, .fields = field_table,  \
                               .num_fields = nfields, .has_creator = true, .copyable = true, \
                               .init = TI_EXPLICIT,                                        \
                               .explicit_init = testing_explicit_init_call,               \
                               .init_schema = INIT_SCHEMA(schema), .reflect = true,   \
                               .final = true}

KEYED_TYPE(kCompare, "testing.TestCompare", kCompareFields, 3, 56, T_INT "," T_STR "," T_INT);
KEYED_TYPE(kHash, "testing.TestHash", kHashFields, 3, 56, T_INT "," T_STR "," T_INT);
KEYED_TYPE(kCustomHash, "testing.TestCustomHash", kKeyLabelFields, 2, 48, T_INT "," T_STR);
KEYED_TYPE(kCustomCompare, "testing.TestCustomCompare", kKeyLabelFields, 2, 48, T_INT "," T_STR);
KEYED_TYPE(kEqWithoutHash, "testing.TestEqWithoutHash", kKeyLabelFields, 2, 48, T_INT "," T_STR);

/* Calls fn (args[last]) with the `key` fields of the objects in args[0..n_objs). */
static int call_with_keys(const TVMFFIAny* args, int32_t num_args, int n_objs,
                          TVMFFIAny* result) {
  if (num_args != n_objs + 1 || args[n_objs].type_index != kTVMFFIFunction) {
    return testing_raise("TypeError", "hook expects %d objects and a function", n_objs);
  }
  TVMFFIAny keys[2];
  for (int i = 0; i < n_objs; ++i) {
    if (args[i].type_index < kTVMFFIStaticObjectBegin) {
      return testing_raise("TypeError", "hook argument #%d is not an object", i);
    }
    keys[i] = testing_view_int(*TESTING_FIELD(args[i].v_obj, int64_t, 24));
  }
  return TVMFFIFunctionCall(args[n_objs].v_obj, keys, n_objs, result);
}

static int hook_hash(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {
  (void)self;
  return call_with_keys(args, n, 1, r);
}
static int hook_eq_or_compare(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {
  (void)self;
  return call_with_keys(args, n, 2, r);
}

static int register_hook(const TestingTypeDef* def, const char* attr, TVMFFISafeCallType call) {
  TVMFFIObjectHandle func = NULL;
  if (TVMFFIFunctionCreate(NULL, call, NULL, &func) != 0) return -1;
  TVMFFIByteArray name = {attr, strlen(attr)};
  TVMFFIAny value = testing_view_object_or_none((TVMFFIObject*)func);
  int rc = TVMFFITypeRegisterAttr(def->type_index, &name, &value);
  TVMFFIObjectDecRef(func);
  return rc;
}

/* ---- unregistered types (no Python class) and deep-copy edges ---- */

static TestingTypeDef kUnregisteredBase;
static TestingTypeDef kUnregistered;

static int get_v1_plus_one(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {
  TVMFFIObject* obj;
  (void)self;
  if (testing_method_arity(&kUnregisteredBase, "get_v1_plus_one", n, 1) != 0 ||
      testing_method_self(&kUnregisteredBase, "get_v1_plus_one", args, &obj) != 0) {
    return -1;
  }
  return ret_int(r, *TESTING_FIELD(obj, int64_t, 24) + 1);
}
static int get_v2_plus_two(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {
  TVMFFIObject* obj;
  (void)self;
  if (testing_method_arity(&kUnregistered, "get_v2_plus_two", n, 1) != 0 ||
      testing_method_self(&kUnregistered, "get_v2_plus_two", args, &obj) != 0) {
    return -1;
  }
  return ret_int(r, *TESTING_FIELD(obj, int64_t, 32) + 2);
}

static const TestingFieldDef kUnregisteredBaseFields[] = {
    {.name = "v1", .kind = TF_I64, .offset = 24, .schema = T_INT}};
static const TestingMethodDef kUnregisteredBaseMethods[] = {
    {.name = "get_v1_plus_one", .doc = "Get (v1 + 1) from TestUnregisteredBaseObject",
     .signature = "(0: testing.TestUnregisteredBaseObject) -> int",
     .schema = SCHEMA_FN(T_INT, T_TYPE("testing.TestUnregisteredBaseObject")),
     .call = get_v1_plus_one}};
static TestingTypeDef kUnregisteredBase = {
    .key = "testing.TestUnregisteredBaseObject", .num_child_slots = 1, .total_size = 32,
    .fields = kUnregisteredBaseFields, .num_fields = 1, .methods = kUnregisteredBaseMethods,
    .num_methods = 1, .copyable = true, .init = TI_EXPLICIT,
    .explicit_init = testing_explicit_init_call, .init_schema = INIT_SCHEMA(T_INT),
    .init_doc = "Constructor of TestUnregisteredBaseObject", .reflect = true};

static const TestingFieldDef kUnregisteredFields[] = {
    {.name = "v2", .kind = TF_I64, .offset = 32, .schema = T_INT}};
static const TestingMethodDef kUnregisteredMethods[] = {
    {.name = "get_v2_plus_two", .doc = "Get (v2 + 2) from TestUnregisteredObject",
     .signature = "(0: testing.TestUnregisteredObject) -> int",
     .schema = SCHEMA_FN(T_INT, T_TYPE("testing.TestUnregisteredObject")),
     .call = get_v2_plus_two}};
static TestingTypeDef kUnregistered = {
    .key = "testing.TestUnregisteredObject", .parent = &kUnregisteredBase, .total_size = 40,
    .fields = kUnregisteredFields, .num_fields = 1, .methods = kUnregisteredMethods,
    .num_methods = 1, .copyable = true, .init = TI_EXPLICIT,
    .explicit_init = testing_explicit_init_call, .init_schema = INIT_SCHEMA(T_INT "," T_INT),
    .init_doc = "Constructor of TestUnregisteredObject", .reflect = true};

static const TestingFieldDef kDeepCopyEdgesFields[] = {
    {.name = "v_any", .kind = TF_ANY, .offset = 24, .flags = RW, .schema = T_ANY},
    {.name = "v_obj", .kind = TF_OPT_OBJ, .offset = 40, .flags = RW, .schema = T_OBJECT,
     .obj_key = "ffi.Object"}};
static TestingTypeDef kDeepCopyEdges = {
    .key = "testing.TestDeepCopyEdges", .total_size = 48, .fields = kDeepCopyEdgesFields,
    .num_fields = 2, .has_creator = true, .copyable = true, .init = TI_AUTO, .reflect = true};

TestingTypeDef* const kTestingBasicTypes[] = {
    &kObjectBase,  &kObjectDerived,    &kPtrHolder,     &kIntPair,
    &kNonCopyable, &kFrozenCxx,        &kCompare,       &kHash,
    &kCustomHash,  &kCustomCompare,    &kEqWithoutHash, &kUnregisteredBase,
    &kUnregistered, &kDeepCopyEdges,
};
const int kTestingNumBasicTypes = (int)(sizeof(kTestingBasicTypes) / sizeof(kTestingBasicTypes[0]));

/* Type attributes beyond what the declarative tables express; after registration. */
int testing_register_basic_hooks(void) {
  TVMFFIObjectHandle func = NULL;
  if (TVMFFIFunctionCreate(NULL, int_pair_convert, NULL, &func) != 0) return -1;
  TVMFFIByteArray name = {"__ffi_convert__", 15};
  TVMFFIAny value = testing_view_object_or_none((TVMFFIObject*)func);
  int rc = TVMFFITypeRegisterAttr(kIntPair.type_index, &name, &value);
  TVMFFIObjectDecRef(func);
  if (rc != 0) return -1;
  if (register_hook(&kCustomHash, "__ffi_hash__", hook_hash) != 0) return -1;
  if (register_hook(&kCustomCompare, "__ffi_hash__", hook_hash) != 0) return -1;
  if (register_hook(&kCustomCompare, "__ffi_eq__", hook_eq_or_compare) != 0) return -1;
  if (register_hook(&kCustomCompare, "__ffi_compare__", hook_eq_or_compare) != 0) return -1;
  return register_hook(&kEqWithoutHash, "__ffi_eq__", hook_eq_or_compare);
}

/* testing.make_unregistered_object(): a TestUnregisteredObject with v1 = 41, v2 = 42. */
static int make_unregistered_object(const TestingFixture* fx, const TVMFFIAny* args,
                                    TVMFFIAny* result) {
  (void)fx;
  (void)args;
  TVMFFIObject* obj = testing_object_new(&kUnregistered);
  if (obj == NULL) return -1;
  *TESTING_FIELD(obj, int64_t, 24) = 41;
  *TESTING_FIELD(obj, int64_t, 32) = 42;
  result->type_index = obj->type_index;
  result->v_obj = obj;
  return 0;
}

/* testing.TestIntPairSum(pair): the `sum` method exposed as a global (self is argument 0). */
static int int_pair_sum_global(const TestingFixture* fx, const TVMFFIAny* args,
                               TVMFFIAny* result) {
  if (args[0].type_index != kIntPair.type_index) {
    return testing_type_mismatch(fx, 0, kIntPair.key, args[0].type_index);
  }
  TVMFFIObject* obj = args[0].v_obj;
  testing_ret_int(result, *TESTING_FIELD(obj, int64_t, 24) + *TESTING_FIELD(obj, int64_t, 32));
  return 0;
}

const TestingFixture kTestingObjectFixtures[] = {
    {"testing.make_unregistered_object", "testing.make_unregistered_object() -> ffi.Object",
     SCHEMA_FN(T_OBJECT, ""), 0, make_unregistered_object, NULL},
    {"testing.TestIntPairSum", "testing.TestIntPairSum(0: testing.TestIntPair) -> int",
     SCHEMA_FN(T_INT, T_TYPE("testing.TestIntPair")), 1, int_pair_sum_global, NULL},
};
const int kTestingNumObjectFixtures =
    (int)(sizeof(kTestingObjectFixtures) / sizeof(kTestingObjectFixtures[0]));
