/*
 * testing_objects.h -- declarative object types of libtvm_ffi_testing.so.
 *
 * Each fixture type is one TestingTypeDef: its fields (kind, offset, flags, default, doc,
 * schema), methods and construction style. objects.c registers them through the C API exactly
 * as a C/C++ library does (TVMFFITypeGetOrAllocIndex, TVMFFITypeRegisterField/Method/Metadata/
 * Attr) and supplies the generic parts every type shares: allocation, deleter, getters,
 * setters, creator, shallow copy and the auto-generated KWARGS __ffi_init__.
 */
#ifndef TVM_FFI_TESTING_OBJECTS_H_
#define TVM_FFI_TESTING_OBJECTS_H_

#include "testing_internal.h"

/* How a field is stored in the object body. */
typedef enum {
  TF_I64,     /* int64_t */
  TF_F64,     /* double */
  TF_I32,     /* int32_t */
  TF_F32,     /* float */
  TF_BOOL,    /* bool (1 byte) */
  TF_STR,     /* String: a 16-byte Any holding a small or heap string */
  TF_ANY,     /* Any: 16 bytes */
  TF_OBJ,     /* non-null object reference (8 bytes) of type obj_key */
  TF_OPT_OBJ, /* nullable object reference (8 bytes) of type obj_key */
  TF_DEVICE,  /* DLDevice (8 bytes) */
  TF_DTYPE,   /* DLDataType (4 bytes) */
  TF_BYTES    /* Bytes: a 16-byte Any holding small or heap bytes */
} TestingFieldKind;

/* Kinds stored as a 16-byte Any (which may own an object). */
static inline bool testing_kind_is_any(TestingFieldKind k) {
  return k == TF_STR || k == TF_ANY || k == TF_BYTES;
}

typedef enum { TD_NONE, TD_INT, TD_FLOAT, TD_STR, TD_NULL } TestingDefaultKind;

typedef struct {
  const char* name;
  TestingFieldKind kind;
  int32_t offset;
  int64_t flags;      /* Writable, ReprOff, InitOff, KwOnly, ...; HasDefault comes from dkind */
  const char* doc;    /* NULL: no doc */
  const char* schema; /* type_schema JSON */
  const char* obj_key; /* TF_OBJ / TF_OPT_OBJ: required type key ("ffi.Object": any object) */
  const char* type_str; /* the C++ type as conversion errors name it ("Map<Any, Any>"); NULL: obj_key */
  TestingDefaultKind dkind;
  int64_t dint;
  double dfloat;
  const char* dstr;
  const char* extra_metadata; /* extra JSON members after type_schema, e.g. "\"k\":1"; or NULL */
  int32_t static_type; /* field_static_type_index when nonzero; else the kind's (objects.c) */
  /* TF_ANY / TF_OBJ / TF_OPT_OBJ fields of a C++ type finer than the kind: converts a value to
   * an owned one of that type or raises (field_convert.c); NULL: the kind's check. */
  int (*convert)(const TVMFFIAny* value, TVMFFIAny* owned);
} TestingFieldDef;

/* field_convert.c: the conversions of testing.SchemaAllTypes' typed fields. */
int testing_convert_opt_int(const TVMFFIAny* v, TVMFFIAny* out);
int testing_convert_opt_str(const TVMFFIAny* v, TVMFFIAny* out);
int testing_convert_arr_int(const TVMFFIAny* v, TVMFFIAny* out);
int testing_convert_arr_str(const TVMFFIAny* v, TVMFFIAny* out);
int testing_convert_map_str_int(const TVMFFIAny* v, TVMFFIAny* out);
int testing_convert_map_str_arr_int(const TVMFFIAny* v, TVMFFIAny* out);
int testing_convert_variant_str_arr_map(const TVMFFIAny* v, TVMFFIAny* out);
int testing_convert_opt_arr_variant(const TVMFFIAny* v, TVMFFIAny* out);

typedef struct {
  const char* name;
  const char* doc; /* NULL: no doc */
  const char* schema;
  bool is_static;
  TVMFFISafeCallType call; /* self of the call is the owning TestingTypeDef */
  const char* extra_metadata;
  /* "(0: T, ...) -> R" as the reference's typed C++ method shows it in argument errors. */
  const char* signature;
} TestingMethodDef;

typedef enum { TI_NONE, TI_AUTO, TI_EXPLICIT } TestingInitKind;

typedef struct TestingTypeDef {
  const char* key;
  struct TestingTypeDef* parent; /* NULL: ffi.Object */
  int32_t num_child_slots;
  int32_t total_size;
  const TestingFieldDef* fields;
  int num_fields;
  const TestingMethodDef* methods;
  int num_methods;
  bool has_creator; /* metadata creator and __ffi_new__ */
  bool copyable;    /* __ffi_shallow_copy__ */
  TestingInitKind init;
  TVMFFISafeCallType explicit_init; /* TI_EXPLICIT: static __ffi_init__ method and type attr */
  const char* init_schema;          /* TI_EXPLICIT: its type_schema */
  const char* init_doc;             /* TI_EXPLICIT: its doc, or NULL */
  bool reflect;                     /* false: type allocated, nothing reflected */
  void (*construct)(TVMFFIObject* obj); /* C++ member initialisers of a fresh object, or NULL */
  int32_t type_index;               /* filled at registration */
  /* TVMFFISEqHashKind of the type metadata. Zero (Unsupported) unless set: the reference's
   * fixtures declare no structural kind, so structural_equal/hash reject them. */
  TVMFFISEqHashKind structural_kind;
  /* Declared final in the reference's C++: its methods accept exactly this type, so a
   * Python-defined subclass is rejected (C++ IsInstance of a final class is an index compare). */
  bool final;
} TestingTypeDef;


/* Fresh zeroed instance of `def` with one strong reference; NULL with an error raised. */
TVMFFIObject* testing_object_new(const TestingTypeDef* def);

/* How argument errors name a method: "<key>.<method><signature>" into buf (returned). */
const char* testing_method_display(const TestingTypeDef* def, const char* method, char* buf,
                                   size_t cap);

/* A method argument of the wrong type: the reference's typed-function TypeError. */
int testing_method_arg_error(const TestingTypeDef* def, const char* method, int index,
                             const char* expected, const TVMFFIAny* actual);

/* Argument count of a method call (checked first, as by the reference's typed functions). */
int testing_method_arity(const TestingTypeDef* def, const char* method, int32_t num_args,
                         int32_t expected_args);

/* Self object of a method call: args[0] must be an instance of `def` (checked after the other
 * arguments: C++ converts them right to left). */
int testing_method_self(const TestingTypeDef* def, const char* method, const TVMFFIAny* args,
                        TVMFFIObject** self);

/* Writes a field through its reflected setter semantics (conversion + type check). */
int testing_field_set(const TestingFieldDef* field, TVMFFIObject* obj, const TVMFFIAny* value);

/* Field storage at an offset of an object body. */
#define TESTING_FIELD(obj, type, offset) ((type*)((char*)(obj) + (offset)))

/* Type tables of the fixture files (objects_*.c). */
extern TestingTypeDef* const kTestingBasicTypes[];
extern const int kTestingNumBasicTypes;
extern TestingTypeDef* const kTestingCxxTypes[];
extern const int kTestingNumCxxTypes;
/* testing.TestVisitRegions (also in kTestingCxxTypes): made fresh by make_visit_region_graph. */
extern TestingTypeDef* const kTestingVisitRegions;
extern TestingTypeDef* const kTestingSchemaTypes[];
extern const int kTestingNumSchemaTypes;

#endif /* TVM_FFI_TESTING_OBJECTS_H_ */
