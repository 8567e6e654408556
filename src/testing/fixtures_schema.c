/*
 * fixtures_schema.c -- the `testing.schema_*` functions (TESTING_FIXTURES.md 2.3): typed
 * functions whose type_schema metadata covers every kind of parameter. Most return their
 * argument after converting it as a typed C++ function would (int/bool interchange, "cpu:0"
 * as a Device, List where an Array is expected, element checks of containers).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testing_internal.h"

#define T_FLOAT "{\"type\":\"float\"}"
#define T_BYTES "{\"type\":\"ffi.Bytes\"}"
#define T_DEVICE "{\"type\":\"Device\"}"
#define T_DTYPE "{\"type\":\"DataType\"}"
#define T_FUNC "{\"type\":\"ffi.Function\"}"
#define T_OPT(t) "{\"type\":\"Optional\",\"args\":[" t "]}"
#define T_ARR(t) "{\"type\":\"ffi.Array\",\"args\":[" t "]}"
#define T_LIST(t) "{\"type\":\"ffi.List\",\"args\":[" t "]}"
#define T_MAP(k, v) "{\"type\":\"ffi.Map\",\"args\":[" k "," v "]}"
#define T_DICT(k, v) "{\"type\":\"ffi.Dict\",\"args\":[" k "," v "]}"
#define T_VARIANT(ts) "{\"type\":\"Variant\",\"args\":[" ts "]}"
#define T_FUNC_TYPED SCHEMA_FN(T_NONE, T_INT "," T_FLOAT "," T_FUNC)

/* What a parameter accepts. Containers check their elements against `elem`/`value`. */
typedef enum {
  K_INT, K_FLOAT, K_BOOL, K_DEVICE, K_DTYPE, K_STR, K_BYTES, K_FUNC, K_ANY, K_OBJECT, K_TENSOR,
  K_DLTENSOR, K_TENSOR_VIEW, K_OPT_INT, K_OPT_STR, K_OPT_OBJ, K_ARRAY, K_LIST, K_MAP, K_DICT,
  K_INT_OR_STR,
  K_INT_STR_OR_ARRAY,
  K_ARRAY_OBJ, /* const ArrayObj*: an Array itself, no conversion */
  K_MAP_OBJ    /* const MapObj*: a Map itself */
} Kind;
typedef struct {
  TestingFixture base; /* first: the registered self pointer is this struct */
  Kind kind;
  TestingElem elem, value; /* containers: element (key) and value types */
  const char* type_name; /* as rendered in mismatch messages */
  const char* extra_metadata;
} SchemaFixture;

/* ---- containers (container_convert.c converts; the messages are the typed call's) ---- */

/* rc from a container conversion: a mismatch becomes the call's TypeError, naming the bad
 * element unless `plain` (a Variant alternative: the reference names only the value's type). */
static int container_refused(const SchemaFixture* fx, int index, const TVMFFIAny* v, int rc,
                             const TestingMismatch* bad, const char* container, bool plain) {
  if (rc != 1) return rc;
  if (plain || bad->where == TESTING_BAD_VALUE) {
    return testing_type_mismatch(&fx->base, index, fx->type_name, v->type_index);
  }
  char what[256];
  testing_mismatch_text(bad, container, what, sizeof(what));
  return testing_raise("TypeError",
                       "Mismatched type on argument #%d when calling: `%s`. Expected `%s` but got "
                       "`%s`",
                       index, fx->base.signature, fx->type_name, what);
}

static int convert_seq(const SchemaFixture* fx, int index, const TVMFFIAny* v, bool want_list,
                       bool plain, TVMFFIAny* out) {
  TestingMismatch bad;
  int rc = testing_convert_seq(fx->elem, want_list, v, out, &bad);
  return container_refused(fx, index, v, rc, &bad, want_list ? "List" : "Array", plain);
}

static int convert_map(const SchemaFixture* fx, int index, const TVMFFIAny* v, bool want_dict,
                       TVMFFIAny* out) {
  TestingMismatch bad;
  int rc = testing_convert_map(fx->elem, fx->value, want_dict, v, out, &bad);
  return container_refused(fx, index, v, rc, &bad, want_dict ? "Dict" : "Map", false);
}

/* ---- scalars ---- */

static int parse_device(const TVMFFIByteArray* s, DLDevice* out) {
  static const struct {
    const char* name;
    int type;
  } kTypes[] = {{"cpu", 1},     {"cuda", 2},  {"cuda_host", 3}, {"opencl", 4}, {"vulkan", 7},
                {"metal", 8},   {"vpi", 9},   {"rocm", 10},     {"rocm_host", 11},
                {"ext_dev", 12}, {"cuda_managed", 13}, {"oneapi", 14}, {"webgpu", 15},
                {"hexagon", 16}};
  size_t colon = 0;
  while (colon < s->size && s->data[colon] != ':') ++colon;
  long id = 0;
  if (colon < s->size) {
    char buf[16];
    size_t n = s->size - colon - 1;
    if (n == 0 || n >= sizeof(buf)) return -1;
    memcpy(buf, s->data + colon + 1, n);
    buf[n] = '\0';
    char* end = NULL;
    id = strtol(buf, &end, 10);
    if (*end != '\0' || id < 0) return -1;
  }
  for (size_t i = 0; i < sizeof(kTypes) / sizeof(kTypes[0]); ++i) {
    if (strlen(kTypes[i].name) == colon && memcmp(kTypes[i].name, s->data, colon) == 0) {
      out->device_type = (DLDeviceType)kTypes[i].type;
      out->device_id = (int32_t)id;
      return 0;
    }
  }
  return -1;
}

static bool str_view(const TVMFFIAny* v, TVMFFIByteArray* out) {
  if (v->type_index == kTVMFFIRawStr) {
    out->data = v->v_c_str;
    out->size = strlen(v->v_c_str);
  } else if (v->type_index == kTVMFFISmallStr) {
    *out = TVMFFISmallBytesGetContentByteArray(v);
  } else if (v->type_index == kTVMFFIStr) {
    *out = *TVMFFIBytesGetByteArrayPtr(v->v_obj);
  } else {
    return false;
  }
  return true;
}

static bool bytes_view(const TVMFFIAny* v, TVMFFIByteArray* out) {
  if (v->type_index == kTVMFFISmallBytes) {
    *out = TVMFFISmallBytesGetContentByteArray(v);
  } else if (v->type_index == kTVMFFIBytes) {
    *out = *TVMFFIBytesGetByteArrayPtr(v->v_obj);
  } else if (v->type_index == kTVMFFIByteArrayPtr) {
    *out = *(const TVMFFIByteArray*)v->v_ptr;
  } else {
    return false;
  }
  return true;
}

static int convert(const SchemaFixture* fx, int index, const TVMFFIAny* v, TVMFFIAny* out) {
  int32_t t = v->type_index;
  bool obj = t >= kTVMFFIStaticObjectBegin;
  TVMFFIByteArray text;
  switch (fx->kind) {
    case K_INT:
      if (t != kTVMFFIInt && t != kTVMFFIBool) break;
      testing_ret_int(out, v->v_int64);
      return 0;
    case K_FLOAT:
      if (t != kTVMFFIInt && t != kTVMFFIBool && t != kTVMFFIFloat) break;
      out->type_index = kTVMFFIFloat;
      out->v_float64 = t == kTVMFFIFloat ? v->v_float64 : (double)v->v_int64;
      return 0;
    case K_BOOL:
      if (t != kTVMFFIInt && t != kTVMFFIBool) break;
      testing_ret_bool(out, v->v_int64 != 0);
      return 0;
    case K_DEVICE:
      out->type_index = kTVMFFIDevice;
      if (t == kTVMFFIDevice) {
        out->v_device = v->v_device;
        return 0;
      }
      if (str_view(v, &text) && parse_device(&text, &out->v_device) == 0) return 0;
      out->type_index = kTVMFFINone;
      break;
    case K_DTYPE:
      out->type_index = kTVMFFIDataType;
      if (t == kTVMFFIDataType) {
        out->v_dtype = v->v_dtype;
        return 0;
      }
      /* Text and bytes parse, and a string that is no dtype raises the parser's ValueError
       * (the reference converts through std::string, which takes both). */
      if (str_view(v, &text) || bytes_view(v, &text)) {
        return TVMFFIDataTypeFromString(&text, &out->v_dtype) == 0 ? 0 : -1;
      }
      out->type_index = kTVMFFINone;
      break;
    case K_STR:
      if (!testing_is_str(t)) break;
      return TVMFFIAnyViewToOwnedAny(v, out);
    case K_BYTES:
      if (t != kTVMFFIBytes && t != kTVMFFISmallBytes && t != kTVMFFIByteArrayPtr) break;
      return TVMFFIAnyViewToOwnedAny(v, out);
    case K_FUNC: /* Function and Tensor references are nullable: None passes */
      if (t != kTVMFFIFunction && t != kTVMFFINone) break;
      return TVMFFIAnyViewToOwnedAny(v, out);
    case K_ANY:
      return TVMFFIAnyViewToOwnedAny(v, out);
    case K_OBJECT:
    case K_OPT_OBJ:
      if (!obj && t != kTVMFFINone) break;
      return TVMFFIAnyViewToOwnedAny(v, out);
    case K_TENSOR:
      if (t != kTVMFFITensor && t != kTVMFFINone) break;
      return TVMFFIAnyViewToOwnedAny(v, out);
    case K_TENSOR_VIEW:
      if (t != kTVMFFITensor && t != kTVMFFIDLTensorPtr) break;
      return 0; /* only viewed, never kept */
    case K_DLTENSOR:
      if (t != kTVMFFITensor && t != kTVMFFIDLTensorPtr) break;
      return testing_raise("RuntimeError",
                           "DLTensor* cannot be held in Any as it does not retain ownership, use "
                           "Tensor instead");
    case K_OPT_INT:
      if (t != kTVMFFIInt && t != kTVMFFIBool && t != kTVMFFINone) break;
      if (t != kTVMFFINone) testing_ret_int(out, v->v_int64);
      return 0;
    case K_OPT_STR:
      if (!testing_is_str(t) && t != kTVMFFINone) break;
      return TVMFFIAnyViewToOwnedAny(v, out);
    case K_ARRAY:
    case K_LIST:
      return convert_seq(fx, index, v, fx->kind == K_LIST, false, out);
    case K_MAP:
    case K_DICT:
      return convert_map(fx, index, v, fx->kind == K_DICT, out);
    case K_ARRAY_OBJ:
    case K_MAP_OBJ:
      if (t != (fx->kind == K_ARRAY_OBJ ? kTVMFFIArray : kTVMFFIMap)) break;
      return TVMFFIAnyViewToOwnedAny(v, out);
    case K_INT_OR_STR:
    case K_INT_STR_OR_ARRAY:
      /* Alternatives in order, each converting: a bool is the int alternative, a List the
       * Array<int> one. */
      if (t == kTVMFFIInt || t == kTVMFFIBool) {
        testing_ret_int(out, v->v_int64);
        return 0;
      }
      if (testing_is_str(t)) return TVMFFIAnyViewToOwnedAny(v, out);
      if (fx->kind == K_INT_STR_OR_ARRAY && (t == kTVMFFIArray || t == kTVMFFIList)) {
        return convert_seq(fx, index, v, false, true, out);
      }
      break;
  }
  return testing_type_mismatch(&fx->base, index, fx->type_name, t);
}

/* ---- bodies ---- */

static int identity(const TestingFixture* base, const TVMFFIAny* args, TVMFFIAny* result) {
  return convert((const SchemaFixture*)base, 0, &args[0], result);
}

static int returns_none(const TestingFixture* base, const TVMFFIAny* args, TVMFFIAny* result) {
  TVMFFIAny converted = {0};
  if (base->num_params == 1 && convert((const SchemaFixture*)base, 0, &args[0], &converted) != 0) {
    return -1;
  }
  if (converted.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(converted.v_obj);
  (void)result;
  return 0;
}

static int returns_one(const TestingFixture* base, const TVMFFIAny* args, TVMFFIAny* result) {
  (void)base;
  (void)args;
  testing_ret_int(result, 1);
  return 0;
}

static int schema_packed(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  (void)args;
  (void)num_args;
  (void)result;
  return 0;
}

/* schema_arr_map_opt(values: Array<Optional<int>>, m: Map<str, Array<int>>, key: Optional<str>):
 * with a key, `m` with m[key] = the non-None values; without, `m` unchanged. */
static int arr_map_opt(const TestingFixture* base, const TVMFFIAny* args, TVMFFIAny* result) {
  const SchemaFixture* fx = (const SchemaFixture*)base;
  SchemaFixture values_fx = *fx, map_fx = *fx;
  values_fx.kind = K_ARRAY;
  values_fx.elem = TESTING_EL_OPT_INT;
  values_fx.type_name = "Array<Optional<int>>";
  map_fx.kind = K_MAP;
  map_fx.elem = TESTING_EL_STR;
  map_fx.value = TESTING_EL_ARRAY_INT;
  map_fx.type_name = "Map<str, Array<int>>";
  TVMFFIAny values = {0}, map = {0};
  if (convert(&values_fx, 0, &args[0], &values) != 0) return -1;
  int rc = convert(&map_fx, 1, &args[1], &map);
  TVMFFIByteArray key;
  if (rc == 0 && args[2].type_index != kTVMFFINone && !str_view(&args[2], &key)) {
    rc = testing_type_mismatch(base, 2, "Optional<str>", args[2].type_index);
  }
  if (rc == 0 && args[2].type_index == kTVMFFINone) {
    *result = map;
    map.type_index = kTVMFFINone;
  } else if (rc == 0) {
    int64_t size;
    const TVMFFIAny* items = testing_seq_items(&values, &size);
    TVMFFIAny* kept = (TVMFFIAny*)calloc((size_t)size + 1, sizeof(TVMFFIAny));
    int64_t n = 0;
    for (int64_t i = 0; kept != NULL && i < size; ++i) {
      if (items[i].type_index != kTVMFFINone) kept[n++] = items[i];
    }
    TVMFFIAny new_list = {0}, dict = {0}, set_args[3];
    rc = kept == NULL ? testing_raise("MemoryError", "out of memory")
                      : testing_call_global("ffi.Array", kept, (int32_t)n, &new_list);
    free(kept);
    /* A copy as a Dict, the entry set, then back to a Map: Map objects are immutable. */
    SchemaFixture to_dict = map_fx;
    to_dict.kind = K_DICT;
    if (rc == 0) rc = convert(&to_dict, 1, &map, &dict);
    if (rc == 0 && dict.v_obj == map.v_obj) rc = testing_raise("RuntimeError", "expected a copy");
    if (rc == 0) {
      set_args[0] = dict;
      set_args[1] = args[2];
      set_args[2] = new_list;
      TVMFFIAny ignored = {0};
      rc = testing_call_global("ffi.DictSetItem", set_args, 3, &ignored);
    }
    if (rc == 0) rc = convert(&map_fx, 1, &dict, result);
    if (new_list.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(new_list.v_obj);
    if (dict.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(dict.v_obj);
  }
  if (values.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(values.v_obj);
  if (map.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(map.v_obj);
  return rc;
}

/* ---- the table ---- */

#define EL(name) TESTING_EL_##name

#define ID(name, tname, schema, kind_, elem_, value_)                                         \
  {{"testing." name, "testing." name "(0: " tname ") -> " tname, SCHEMA_FN(schema, schema), 1, \
    identity, NULL},                                                                         \
   kind_, elem_, value_, tname, NULL}

static const SchemaFixture kSchemaFixtures[] = {
    {{"testing.schema_id_int", "testing.schema_id_int(0: int) -> int", SCHEMA_FN(T_INT, T_INT), 1,
      identity, NULL},
     K_INT, EL(ANY), EL(ANY), "int", "\"bool_attr\":true,\"int_attr\":1,\"str_attr\":\"hello\""},
    ID("schema_id_float", "float", T_FLOAT, K_FLOAT, EL(ANY), EL(ANY)),
    ID("schema_id_bool", "bool", T_BOOL, K_BOOL, EL(ANY), EL(ANY)),
    ID("schema_id_device", "Device", T_DEVICE, K_DEVICE, EL(ANY), EL(ANY)),
    ID("schema_id_dtype", "DataType", T_DTYPE, K_DTYPE, EL(ANY), EL(ANY)),
    ID("schema_id_string", "str", T_STR, K_STR, EL(ANY), EL(ANY)),
    ID("schema_id_bytes", "bytes", T_BYTES, K_BYTES, EL(ANY), EL(ANY)),
    ID("schema_id_func", "ffi.Function", T_FUNC, K_FUNC, EL(ANY), EL(ANY)),
    ID("schema_id_func_typed", "(0: int, 1: float, 2: ffi.Function) -> void", T_FUNC_TYPED, K_FUNC,
       EL(ANY), EL(ANY)),
    ID("schema_id_any", "Any", T_ANY, K_ANY, EL(ANY), EL(ANY)),
    ID("schema_id_object", "ffi.Object", T_OBJECT, K_OBJECT, EL(ANY), EL(ANY)),
    ID("schema_id_dltensor", "DLTensor*", "{\"type\":\"DLTensor*\"}", K_DLTENSOR, EL(ANY), EL(ANY)),
    ID("schema_id_tensor", "ffi.Tensor", T_TENSOR, K_TENSOR, EL(ANY), EL(ANY)),
    ID("schema_id_opt_int", "Optional<int>", T_OPT(T_INT), K_OPT_INT, EL(ANY), EL(ANY)),
    ID("schema_id_opt_str", "Optional<str>", T_OPT(T_STR), K_OPT_STR, EL(ANY), EL(ANY)),
    ID("schema_id_opt_obj", "Optional<ffi.Object>", T_OPT(T_OBJECT), K_OPT_OBJ, EL(ANY), EL(ANY)),
    ID("schema_id_arr_int", "Array<int>", T_ARR(T_INT), K_ARRAY, EL(INT), EL(ANY)),
    ID("schema_id_arr_str", "Array<str>", T_ARR(T_STR), K_ARRAY, EL(STR), EL(ANY)),
    ID("schema_id_arr_obj", "Array<ffi.Object>", T_ARR(T_OBJECT), K_ARRAY, EL(OBJ), EL(ANY)),
    /* const ArrayObj* / const MapObj*: named by the type key */
    ID("schema_id_arr", "ffi.Array", "{\"type\":\"ffi.Array\"}", K_ARRAY_OBJ, EL(ANY), EL(ANY)),
    ID("schema_id_list_int", "List<int>", T_LIST(T_INT), K_LIST, EL(INT), EL(ANY)),
    ID("schema_id_list_str", "List<str>", T_LIST(T_STR), K_LIST, EL(STR), EL(ANY)),
    ID("schema_id_list_obj", "List<ffi.Object>", T_LIST(T_OBJECT), K_LIST, EL(OBJ), EL(ANY)),
    ID("schema_id_map_str_int", "Map<str, int>", T_MAP(T_STR, T_INT), K_MAP, EL(STR), EL(INT)),
    ID("schema_id_map_str_str", "Map<str, str>", T_MAP(T_STR, T_STR), K_MAP, EL(STR), EL(STR)),
    ID("schema_id_map_str_obj", "Map<str, ffi.Object>", T_MAP(T_STR, T_OBJECT), K_MAP, EL(STR),
       EL(OBJ)),
    ID("schema_id_map", "ffi.Map", "{\"type\":\"ffi.Map\"}", K_MAP_OBJ, EL(ANY), EL(ANY)),
    ID("schema_id_dict_str_int", "Dict<str, int>", T_DICT(T_STR, T_INT), K_DICT, EL(STR), EL(INT)),
    ID("schema_id_dict_str_str", "Dict<str, str>", T_DICT(T_STR, T_STR), K_DICT, EL(STR), EL(STR)),
    ID("schema_id_variant_int_str", "Variant<int, str>", T_VARIANT(T_INT "," T_STR), K_INT_OR_STR,
       EL(ANY), EL(ANY)),
    ID("schema_variant_mix", "Variant<int, str, Array<int>>",
       T_VARIANT(T_INT "," T_STR "," T_ARR(T_INT)), K_INT_STR_OR_ARRAY, EL(INT), EL(ANY)),
    {{"testing.schema_tensor_view_input", "testing.schema_tensor_view_input(0: DLTensor*) -> void",
      SCHEMA_FN(T_NONE, "{\"type\":\"DLTensor*\"}"), 1, returns_none, NULL},
     K_TENSOR_VIEW, EL(ANY), EL(ANY), "DLTensor*", NULL},
    {{"testing.schema_packed", NULL, SCHEMA_PACKED, 0, NULL, schema_packed},
     K_ANY, EL(ANY), EL(ANY), "", NULL},
    {{"testing.schema_arr_map_opt",
      "testing.schema_arr_map_opt(0: Array<Optional<int>>, 1: Map<str, Array<int>>, 2: "
      "Optional<str>) -> Map<str, Array<int>>",
      SCHEMA_FN(T_MAP(T_STR, T_ARR(T_INT)),
                T_ARR(T_OPT(T_INT)) "," T_MAP(T_STR, T_ARR(T_INT)) "," T_OPT(T_STR)),
      3, arr_map_opt, NULL},
     K_ANY, EL(ANY), EL(ANY), "", NULL},
    {{"testing.schema_no_args", "testing.schema_no_args() -> int", SCHEMA_FN(T_INT, ""), 0,
      returns_one, NULL},
     K_ANY, EL(ANY), EL(ANY), "", NULL},
    {{"testing.schema_no_return", "testing.schema_no_return(0: int) -> void", SCHEMA_FN(T_NONE, T_INT),
      1, returns_none, NULL},
     K_INT, EL(ANY), EL(ANY), "int", NULL},
    {{"testing.schema_no_args_no_return", "testing.schema_no_args_no_return() -> void",
      SCHEMA_FN(T_NONE, ""), 0, returns_none, NULL},
     K_ANY, EL(ANY), EL(ANY), "", NULL},
};

const int kTestingNumSchemaFixtures = (int)(sizeof(kSchemaFixtures) / sizeof(kSchemaFixtures[0]));

const TestingFixture* testing_schema_fixture(int i) {
  return &kSchemaFixtures[i].base;
}

const char* testing_schema_fixture_extra_metadata(int i) {
  return kSchemaFixtures[i].extra_metadata;
}
