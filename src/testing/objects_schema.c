/*
 * objects_schema.c -- `testing.SchemaAllTypes` (TESTING_FIXTURES.md 3.8): one field of every
 * storage kind with its type schema and doc, and methods whose schemas cover containers,
 * optionals and a static factory. No creator (no default constructor), so no __ffi_init__.
 */
#include <stdlib.h>
#include <string.h>

#include "testing_objects.h"

#define RW kTVMFFIFieldFlagBitMaskWritable
#define T_FLOAT "{\"type\":\"float\"}"
#define T_TYPE(key) "{\"type\":\"" key "\"}"
#define T_OPT(t) "{\"type\":\"Optional\",\"args\":[" t "]}"
#define T_ARR(t) "{\"type\":\"ffi.Array\",\"args\":[" t "]}"
#define T_MAP(k, v) "{\"type\":\"ffi.Map\",\"args\":[" k "," v "]}"
#define T_VARIANT(ts) "{\"type\":\"Variant\",\"args\":[" ts "]}"
#define T_SELF T_TYPE("testing.SchemaAllTypes")
#define EXTRA_ATTRS "\"bool_attr\":true,\"int_attr\":1,\"str_attr\":\"hello\""

static TestingTypeDef kSchemaAllTypes;

static void release(TVMFFIAny* v) {
  if (v->type_index >= kTVMFFIStaticObjectBegin && v->v_obj != NULL) TVMFFIObjectDecRef(v->v_obj);
  memset(v, 0, sizeof(*v));
}

static bool view_str(const TVMFFIAny* v, TVMFFIByteArray* out) {
  switch (v->type_index) {
    case kTVMFFIRawStr:
      out->data = v->v_c_str;
      out->size = strlen(v->v_c_str);
      return true;
    case kTVMFFISmallStr:
      *out = TVMFFISmallBytesGetContentByteArray(v);
      return true;
    case kTVMFFIStr:
      *out = *TVMFFIBytesGetByteArrayPtr(v->v_obj);
      return true;
    default:
      return false;
  }
}

static const TVMFFISeqCell* seq_cell(const TVMFFIAny* v) {
  return (const TVMFFISeqCell*)((char*)v->v_obj + sizeof(TVMFFIObject));
}

static int arg_error(const char* method, int index, const char* expected, const TVMFFIAny* v) {
  return testing_method_arg_error(&kSchemaAllTypes, method, index, expected, v);
}

/* C++ (GCC) converts a typed method's arguments right to left: the last bad one is reported, the
 * self argument (#0) last of all, after the arity. */
static int arity(const char* method, int32_t n, int32_t expected) {
  return testing_method_arity(&kSchemaAllTypes, method, n, expected);
}

/* add_int(self, x) -> v_int + x */
static int add_int(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {
  TVMFFIObject* obj;
  (void)self;
  if (arity("add_int", n, 2) != 0) return -1;
  if (args[1].type_index != kTVMFFIInt && args[1].type_index != kTVMFFIBool) {
    return arg_error("add_int", 1, "int", &args[1]);
  }
  if (testing_method_self(&kSchemaAllTypes, "add_int", args, &obj) != 0) return -1;
  testing_ret_int(r, *TESTING_FIELD(obj, int64_t, 32) + args[1].v_int64);
  return 0;
}

/* append_int(self, xs, y) -> xs with y appended (a new Array) */
static int append_int(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {
  TVMFFIObject* obj;
  (void)self;
  if (arity("append_int", n, 3) != 0) return -1;
  if (args[2].type_index != kTVMFFIInt) return arg_error("append_int", 2, "int", &args[2]);
  if (args[1].type_index != kTVMFFIArray && args[1].type_index != kTVMFFIList) {
    return arg_error("append_int", 1, "Array<int>", &args[1]);
  }
  if (testing_method_self(&kSchemaAllTypes, "append_int", args, &obj) != 0) return -1;
  const TVMFFISeqCell* cell = seq_cell(&args[1]);
  TVMFFIAny* items = (TVMFFIAny*)calloc((size_t)cell->size + 1, sizeof(TVMFFIAny));
  if (items == NULL) return testing_raise("MemoryError", "out of memory");
  if (cell->size > 0) memcpy(items, cell->data, (size_t)cell->size * sizeof(TVMFFIAny));
  items[cell->size] = args[2];
  int rc = testing_call_global("ffi.Array", items, (int32_t)cell->size + 1, r);
  free(items);
  return rc;
}

/* maybe_concat(self, a, b) -> a + b, whichever is present, or None */
static int maybe_concat(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {
  TVMFFIObject* obj;
  (void)self;
  if (arity("maybe_concat", n, 3) != 0) return -1;
  TVMFFIByteArray parts[2];
  bool present[2];
  for (int i = 1; i >= 0; --i) {
    present[i] = args[i + 1].type_index != kTVMFFINone;
    if (present[i] && !view_str(&args[i + 1], &parts[i])) {
      return arg_error("maybe_concat", i + 1, "Optional<str>", &args[i + 1]);
    }
  }
  if (testing_method_self(&kSchemaAllTypes, "maybe_concat", args, &obj) != 0) return -1;
  if (!present[0] && !present[1]) return 0; /* None */
  if (present[0] != present[1]) return TVMFFIAnyViewToOwnedAny(&args[present[0] ? 1 : 2], r);
  char* joined = (char*)malloc(parts[0].size + parts[1].size + 1);
  if (joined == NULL) return testing_raise("MemoryError", "out of memory");
  memcpy(joined, parts[0].data, parts[0].size);
  memcpy(joined + parts[0].size, parts[1].data, parts[1].size);
  joined[parts[0].size + parts[1].size] = '\0';
  TVMFFIAny view = testing_view_cstr(joined);
  int rc = TVMFFIAnyViewToOwnedAny(&view, r);
  free(joined);
  return rc;
}

/* Index of the entry whose string key equals `key` among n flat entries; -1 when absent. */
static int64_t find_key(const TVMFFIAny* flat, int64_t n, const TVMFFIAny* key) {
  TVMFFIByteArray want, have;
  if (!view_str(key, &want)) return -1;
  for (int64_t i = 0; i < n; ++i) {
    if (view_str(&flat[2 * i], &have) && have.size == want.size &&
        memcmp(have.data, want.data, want.size) == 0) {
      return i;
    }
  }
  return -1;
}

/* Owned concatenation of two Arrays. */
static int concat_arrays(const TVMFFIAny* a, const TVMFFIAny* b, TVMFFIAny* out) {
  const TVMFFISeqCell* ca = seq_cell(a);
  const TVMFFISeqCell* cb = seq_cell(b);
  TVMFFIAny* items = (TVMFFIAny*)calloc((size_t)(ca->size + cb->size + 1), sizeof(TVMFFIAny));
  if (items == NULL) return testing_raise("MemoryError", "out of memory");
  if (ca->size > 0) memcpy(items, ca->data, (size_t)ca->size * sizeof(TVMFFIAny));
  if (cb->size > 0) memcpy(items + ca->size, cb->data, (size_t)cb->size * sizeof(TVMFFIAny));
  int rc = testing_call_global("ffi.Array", items, (int32_t)(ca->size + cb->size), out);
  free(items);
  return rc;
}

/* merge_map(self, lhs, rhs): rhs keys absent in lhs are added; present ones get rhs's list
 * appended to lhs's. */
static int merge_map(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {
  TVMFFIObject* obj;
  (void)self;
  if (arity("merge_map", n, 3) != 0) return -1;
  for (int i = 2; i >= 1; --i) {
    if (args[i].type_index != kTVMFFIMap && args[i].type_index != kTVMFFIDict) {
      return arg_error("merge_map", i, "Map<str, Array<int>>", &args[i]);
    }
  }
  if (testing_method_self(&kSchemaAllTypes, "merge_map", args, &obj) != 0) return -1;
  TVMFFIAny *lhs = NULL, *rhs = NULL;
  int64_t nl = 0, nr = 0;
  if (testing_map_items(&args[1], &lhs, &nl) != 0) return -1;
  int rc = testing_map_items(&args[2], &rhs, &nr);
  TVMFFIAny* merged = rc == 0 ? (TVMFFIAny*)calloc((size_t)(2 * (nl + nr) + 1), sizeof(TVMFFIAny))
                              : NULL;
  if (rc == 0 && merged == NULL) rc = testing_raise("MemoryError", "out of memory");
  int64_t m = nl;
  if (rc == 0) memcpy(merged, lhs, (size_t)(2 * nl) * sizeof(TVMFFIAny)); /* views of lhs */
  TVMFFIAny* made = rc == 0 ? (TVMFFIAny*)calloc((size_t)nr + 1, sizeof(TVMFFIAny)) : NULL;
  if (rc == 0 && made == NULL) rc = testing_raise("MemoryError", "out of memory");
  for (int64_t i = 0; rc == 0 && i < nr; ++i) {
    int64_t at = find_key(lhs, nl, &rhs[2 * i]);
    bool arrays = rhs[2 * i + 1].type_index == kTVMFFIArray &&
                  (at < 0 || lhs[2 * at + 1].type_index == kTVMFFIArray);
    if (!arrays) {
      rc = arg_error("merge_map", 2, "Map<str, Array<int>>", &rhs[2 * i + 1]);
    } else if (at < 0) {
      merged[2 * m] = rhs[2 * i];
      merged[2 * m + 1] = rhs[2 * i + 1];
      ++m;
    } else {
      rc = concat_arrays(&lhs[2 * at + 1], &rhs[2 * i + 1], &made[i]);
      merged[2 * at + 1] = made[i];
    }
  }
  if (rc == 0) rc = testing_call_global("ffi.Map", merged, (int32_t)(2 * m), r);
  testing_release_items(made, nr);
  free(merged);
  testing_release_items(lhs, 2 * nl);
  testing_release_items(rhs, 2 * nr);
  return rc;
}

/* make_with(vi, vf, s) (static): the listed fields set, every other one default-constructed. */
static int make_with(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* r) {
  (void)self;
  if (arity("make_with", n, 3) != 0) return -1;
  TVMFFIByteArray text;
  if (!view_str(&args[2], &text)) return arg_error("make_with", 2, "str", &args[2]);
  int32_t t1 = args[1].type_index, t0 = args[0].type_index;
  if (t1 != kTVMFFIFloat && t1 != kTVMFFIInt && t1 != kTVMFFIBool) {
    return arg_error("make_with", 1, "float", &args[1]);
  }
  if (t0 != kTVMFFIInt && t0 != kTVMFFIBool) return arg_error("make_with", 0, "int", &args[0]);
  TVMFFIObject* obj = testing_object_new(&kSchemaAllTypes);
  if (obj == NULL) return -1;
  TVMFFIAny variant = testing_view_cstr("v"), empty_array = {0}, empty_map = {0};
  int rc = testing_call_global("ffi.Array", NULL, 0, &empty_array);
  if (rc == 0) rc = testing_call_global("ffi.Map", NULL, 0, &empty_map);
  /* v_int, v_float, v_string from the arguments; the others as the C++ constructor leaves them. */
  const char* names[] = {"v_int", "v_float", "v_string", "v_variant"};
  const TVMFFIAny* values[] = {&args[0], &args[1], &args[2], &variant};
  for (int i = 0; rc == 0 && i < 4; ++i) {
    for (int j = 0; j < kSchemaAllTypes.num_fields; ++j) {
      if (strcmp(kSchemaAllTypes.fields[j].name, names[i]) == 0) {
        rc = testing_field_set(&kSchemaAllTypes.fields[j], obj, values[i]);
      }
    }
  }
  if (rc == 0) {
    *TESTING_FIELD(obj, bool, 24) = true;
    TESTING_FIELD(obj, DLDevice, 48)->device_type = kDLCPU;
    DLDataType f32 = {kDLFloat, 32, 1};
    *TESTING_FIELD(obj, DLDataType, 56) = f32;
    TESTING_FIELD(obj, TVMFFIAny, 80)->type_index = kTVMFFISmallBytes; /* empty bytes */
    const int32_t arrays[] = {128, 136}, maps[] = {144, 152};
    for (int i = 0; i < 2; ++i) {
      TVMFFIObjectIncRef(empty_array.v_obj);
      *TESTING_FIELD(obj, TVMFFIObject*, arrays[i]) = empty_array.v_obj;
      TVMFFIObjectIncRef(empty_map.v_obj);
      *TESTING_FIELD(obj, TVMFFIObject*, maps[i]) = empty_map.v_obj;
    }
  }
  release(&empty_array);
  release(&empty_map);
  if (rc != 0) {
    TVMFFIObjectDecRef(obj);
    return -1;
  }
  r->type_index = obj->type_index;
  r->v_obj = obj;
  return 0;
}

#define F(n, k, off, d, s, ...) \
  {.name = n, .kind = k, .offset = off, .flags = RW, .doc = d, .schema = s, __VA_ARGS__}

static const TestingFieldDef kFields[] = {
    F("v_bool", TF_BOOL, 24, "bool field", T_BOOL, .extra_metadata = EXTRA_ATTRS),
    F("v_int", TF_I64, 32, "int field", T_INT, .dkind = TD_INT, .dint = 0),
    F("v_float", TF_F64, 40, "float field", T_FLOAT, .dkind = TD_FLOAT, .dfloat = 0.0),
    F("v_device", TF_DEVICE, 48, "device field", "{\"type\":\"Device\"}"),
    F("v_dtype", TF_DTYPE, 56, "dtype field", "{\"type\":\"DataType\"}"),
    F("v_string", TF_STR, 64, "string field", T_STR, .dkind = TD_STR, .dstr = "s"),
    F("v_bytes", TF_BYTES, 80, "bytes field", "{\"type\":\"ffi.Bytes\"}"),
    F("v_opt_int", TF_ANY, 96, "optional int", T_OPT(T_INT), .convert = testing_convert_opt_int),
    F("v_opt_str", TF_ANY, 112, "optional str", T_OPT(T_STR), .convert = testing_convert_opt_str),
    F("v_arr_int", TF_OBJ, 128, "array<int>", T_ARR(T_INT), .obj_key = "ffi.Array",
      .static_type = kTVMFFIArray, .convert = testing_convert_arr_int),
    F("v_arr_str", TF_OBJ, 136, "array<str>", T_ARR(T_STR), .obj_key = "ffi.Array",
      .static_type = kTVMFFIArray, .convert = testing_convert_arr_str),
    F("v_map_str_int", TF_OBJ, 144, "map<str,int>", T_MAP(T_STR, T_INT), .obj_key = "ffi.Map",
      .convert = testing_convert_map_str_int),
    F("v_map_str_arr_int", TF_OBJ, 152, "map<str,array<int>>", T_MAP(T_STR, T_ARR(T_INT)),
      .obj_key = "ffi.Map", .convert = testing_convert_map_str_arr_int),
    F("v_variant", TF_ANY, 160, "variant<str,array<int>,map<str,int>>",
      T_VARIANT(T_STR "," T_ARR(T_INT) "," T_MAP(T_STR, T_INT)),
      .convert = testing_convert_variant_str_arr_map),
    F("v_opt_arr_variant", TF_OPT_OBJ, 176, "optional<array<variant<int,str>>>",
      T_OPT(T_ARR(T_VARIANT(T_INT "," T_STR))), .obj_key = "ffi.Array", .static_type = kTVMFFIAny,
      .convert = testing_convert_opt_arr_variant),
};

static const TestingMethodDef kMethods[] = {
    {.name = "add_int",
     .signature = "(0: testing.SchemaAllTypes, 1: int) -> int", .doc = "add int method", .schema = SCHEMA_FN(T_INT, T_SELF "," T_INT),
     .call = add_int, .extra_metadata = EXTRA_ATTRS},
    {.name = "append_int",
     .signature = "(0: testing.SchemaAllTypes, 1: Array<int>, 2: int) -> Array<int>", .doc = "append int to array",
     .schema = SCHEMA_FN(T_ARR(T_INT), T_SELF "," T_ARR(T_INT) "," T_INT), .call = append_int},
    {.name = "maybe_concat",
     .signature = "(0: testing.SchemaAllTypes, 1: Optional<str>, 2: "
     "Optional<str>) -> Optional<str>", .doc = "optional concat",
     .schema = SCHEMA_FN(T_OPT(T_STR), T_SELF "," T_OPT(T_STR) "," T_OPT(T_STR)),
     .call = maybe_concat},
    {.name = "merge_map",
     .signature = "(0: testing.SchemaAllTypes, 1: Map<str, Array<int>>, 2: "
     "Map<str, Array<int>>) -> Map<str, Array<int>>", .doc = "merge maps",
     .schema = SCHEMA_FN(T_MAP(T_STR, T_ARR(T_INT)),
                         T_SELF "," T_MAP(T_STR, T_ARR(T_INT)) "," T_MAP(T_STR, T_ARR(T_INT))),
     .call = merge_map},
    {.name = "make_with",
     .signature = "(0: int, 1: float, 2: str) -> testing.SchemaAllTypes", .doc = "Constructor with subset of fields", .is_static = true,
     .schema = SCHEMA_FN(T_SELF, T_INT "," T_FLOAT "," T_STR), .call = make_with},
};

static TestingTypeDef kSchemaAllTypes = {
    .key = "testing.SchemaAllTypes", .total_size = 184, .fields = kFields,
    .num_fields = (int)(sizeof(kFields) / sizeof(kFields[0])), .methods = kMethods,
    .num_methods = (int)(sizeof(kMethods) / sizeof(kMethods[0])), .copyable = true,
    .reflect = true};

TestingTypeDef* const kTestingSchemaTypes[] = {&kSchemaAllTypes};
const int kTestingNumSchemaTypes = 1;
