/*
 * testing_internal.h -- what the files of libtvm_ffi_testing.so share.
 *
 * Every fixture is described by one static TestingFixture. The descriptor doubles as the
 * `self` pointer of the function object, so argument checks can name the function and render
 * its signature in the reference's mismatch messages without any per-call state.
 */
#ifndef TVM_FFI_TESTING_INTERNAL_H_
#define TVM_FFI_TESTING_INTERNAL_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tvm/ffi/c_api.h>

/* Marks the symbols that must stay visible (the library is built with hidden visibility). */
#define TESTING_EXPORT __attribute__((visibility("default")))

struct TestingFixture;

/* Body of a typed fixture: the argument count is already checked against num_params. */
typedef int (*TestingBody)(const struct TestingFixture* fx, const TVMFFIAny* args,
                           TVMFFIAny* result);

typedef struct TestingFixture {
  const char* name;      /* global registry name, e.g. "testing.add_one" */
  const char* signature; /* as rendered in mismatch errors; NULL for packed fixtures */
  const char* schema;    /* type_schema JSON (the wheel's named_args shape) */
  int32_t num_params;    /* typed fixtures only */
  TestingBody body;      /* typed fixtures: called after the arity check */
  TVMFFISafeCallType packed; /* packed fixtures: registered as is, no checks */
} TestingFixture;

/* Building blocks of type_schema JSON (the reference wheel's `named_args` shape: return type, then the parameter types). */
#define SCHEMA_FN(ret, params) \
  "{\"type\":\"ffi.Function\",\"named_args\":{\"return\":[" ret "],\"params\":[" params "]}}"
#define T_INT "{\"type\":\"int\"}"
#define T_BOOL "{\"type\":\"bool\"}"
#define T_NONE "{\"type\":\"None\"}"
#define T_STR "{\"type\":\"ffi.String\"}"
#define T_OBJECT "{\"type\":\"ffi.Object\"}"
#define T_TENSOR "{\"type\":\"ffi.Tensor\"}"
#define T_ANY "{\"type\":\"Any\"}"
#define T_ARRAY_ANY "{\"type\":\"ffi.Array\",\"args\":[" T_ANY "]}"
#define T_LIST_ANY "{\"type\":\"ffi.List\",\"args\":[" T_ANY "]}"
#define T_MAP_STR_ANY "{\"type\":\"ffi.Map\",\"args\":[" T_STR "," T_ANY "]}"
#define T_DICT_STR_ANY "{\"type\":\"ffi.Dict\",\"args\":[" T_STR "," T_ANY "]}"
#define T_OPT_DLTENSOR "{\"type\":\"Optional\",\"args\":[{\"type\":\"DLTensor*\"}]}"
#define SCHEMA_PACKED "{\"type\":\"ffi.Function\"}"

/* Tables of fixtures, one per source file; register.c registers them all at load time. */
extern const TestingFixture kTestingCoreFixtures[];
extern const int kTestingNumCoreFixtures;
extern const TestingFixture kTestingArrayFixtures[];
extern const int kTestingNumArrayFixtures;
extern const TestingFixture kTestingContainerFixtures[];
extern const int kTestingNumContainerFixtures;
/* fixtures_schema.c: the schema_* functions (element i of kTestingNumSchemaFixtures), and the
 * JSON members their metadata has beyond type_schema (`"k":v,...`, or NULL). */
extern const int kTestingNumSchemaFixtures;
const TestingFixture* testing_schema_fixture(int i);
const char* testing_schema_fixture_extra_metadata(int i);
extern const TestingFixture kTestingObjectFixtures[];
extern const int kTestingNumObjectFixtures;

/* Object types (objects*.c): registered before the functions that return them. */
void testing_register_object_types(void);
int testing_register_basic_hooks(void);
/* objects_enum.c: the enum types, their EnumDef entries and testing.enum_variant_get. */
int testing_register_enum_fixtures(void);
int testing_register_type_final(void); /* type_final.c: __ffi_type_final__ of the fixtures */

/* The add-one safe call behind get_add_one_c_symbol and the system-library entry. */
int testing_add_one_safe_call(void* handle, const TVMFFIAny* args, int32_t num_args,
                              TVMFFIAny* result);

/* ---- args.c: raising errors, reading arguments, writing results ---- */

/* Raises a printf-formatted error of `kind`. Always returns -1. */
int testing_raise(const char* kind, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

/* TypeError "Mismatched type on argument #i when calling: `sig`. Expected `T` but got `U`". */
int testing_type_mismatch(const TestingFixture* fx, int index, const char* expected,
                          int32_t actual_type_index);

/* TypeError "Mismatched number of arguments when calling: `sig`. Expected n but got m arguments". */
int testing_arity_mismatch(const TestingFixture* fx, int32_t num_args);

/* Type key of a type index as a (pointer, length) pair, for messages. */
TVMFFIByteArray testing_type_key(int32_t type_index);

/* True when type_index is `ancestor` or derives from it. */
bool testing_is_instance(int32_t type_index, int32_t ancestor);

/* Argument readers for typed fixtures; each raises a mismatch TypeError on failure. */
int testing_arg_int(const TestingFixture* fx, const TVMFFIAny* args, int index, int64_t* out);
int testing_arg_str(const TestingFixture* fx, const TVMFFIAny* args, int index,
                    TVMFFIByteArray* out);
int testing_arg_object(const TestingFixture* fx, const TVMFFIAny* args, int index,
                       TVMFFIObject** out);
/* A Tensor object, or None (*out = NULL). */
int testing_arg_tensor_or_none(const TestingFixture* fx, const TVMFFIAny* args, int index,
                               TVMFFIObject** out);

/* Result writers: the caller zero-initialised *result, these fill it. */
void testing_ret_int(TVMFFIAny* result, int64_t value);
void testing_ret_bool(TVMFFIAny* result, bool value);

/* register.c: `{"type_schema":"<schema as a JSON string>"[,extra]}` (malloc'ed; NULL when out
 * of memory). */
char* testing_schema_metadata(const char* schema, const char* extra);

/* ---- globals.c: building values through the runtime's global functions ---- */

/* Calls the global function `name` (e.g. "ffi.Array") with args into *result (owned). */
int testing_call_global(const char* name, const TVMFFIAny* args, int32_t num_args,
                        TVMFFIAny* result);

/* Borrowed views to pass as arguments; nothing to release. */
TVMFFIAny testing_view_object_or_none(TVMFFIObject* obj); /* NULL becomes None */
TVMFFIAny testing_view_int(int64_t value);
TVMFFIAny testing_view_cstr(const char* text); /* the callee copies it into a String */

/* The entries of a Map or Dict as owned k0, v0, k1, v1, ... (*n entries; release with
 * testing_release_items(*flat, 2 * *n)). */
int testing_map_items(const TVMFFIAny* map, TVMFFIAny** flat, int64_t* n);

/* A string value: small, heap or raw C string. */
static inline bool testing_is_str(int32_t type_index) {
  return type_index == kTVMFFISmallStr || type_index == kTVMFFIStr || type_index == kTVMFFIRawStr;
}

/* The items of an Array or List value (borrowed) and their count. */
static inline const TVMFFIAny* testing_seq_items(const TVMFFIAny* seq, int64_t* n) {
  const TVMFFISeqCell* cell = (const TVMFFISeqCell*)((char*)seq->v_obj + sizeof(TVMFFIObject));
  *n = cell->size;
  return (const TVMFFIAny*)cell->data;
}
void testing_release_items(TVMFFIAny* items, int64_t n);
/* Releases what one owned value holds and leaves it None (zeroed). */
void testing_release_value(TVMFFIAny* value);

/* ---- container_convert.c: values to typed C++ elements and containers ----
 * Each returns 0 (converted: *out owned), 1 (does not convert: *bad says where, nothing
 * raised) or -1 (an error raised). */

typedef enum {
  TESTING_EL_ANY,
  TESTING_EL_INT,        /* a bool converts */
  TESTING_EL_OPT_INT,    /* an int or None */
  TESTING_EL_STR,
  TESTING_EL_OBJ,        /* an object or None */
  TESTING_EL_INT_OR_STR, /* Variant<int, str> */
  TESTING_EL_ARRAY_INT   /* Array<int>, from a List too */
} TestingElem;

typedef enum {
  TESTING_BAD_VALUE,     /* the value itself is of another kind */
  TESTING_BAD_ELEMENT,   /* element `index` of a sequence */
  TESTING_BAD_KEY,       /* a key of a mapping */
  TESTING_BAD_MAP_VALUE  /* a value of a mapping; `index`: its bad Array<int> element, or -1 */
} TestingMismatchWhere;

typedef struct {
  TestingMismatchWhere where;
  int64_t index;
  int32_t type_index; /* of what does not convert */
} TestingMismatch;

int testing_convert_elem(TestingElem e, const TVMFFIAny* v, TVMFFIAny* out);
/* An Array (or a List when want_list) of `e` from an Array or List. */
int testing_convert_seq(TestingElem e, bool want_list, const TVMFFIAny* v, TVMFFIAny* out,
                        TestingMismatch* bad);
/* A Map (or a Dict when want_dict) of key `ke` and value `ve` from a Map or Dict. */
int testing_convert_map(TestingElem ke, TestingElem ve, bool want_dict, const TVMFFIAny* v,
                        TVMFFIAny* out, TestingMismatch* bad);
/* The reference's name for what did not convert: the type key for TESTING_BAD_VALUE, else
 * "Array[index 1: float]", "Map[some key is int, V]", "Map[K, some value is ...]" with
 * `container` as the outer name. */
void testing_mismatch_text(const TestingMismatch* bad, const char* container, char* buf,
                           size_t size);

#endif /* TVM_FFI_TESTING_INTERNAL_H_ */
