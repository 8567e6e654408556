/*
 * structural/structural_key.c -- ffi.StructuralKey (spec STRUCTURAL.md section 3.9): a value
 * wrapped with its structural hash, usable as a Map/Dict key that matches structurally equal
 * values (type attributes __any_hash__ / __any_equal__). Fields `key` (Any) and `hash_i64`
 * (signed structural hash, stored as is through JSON/pickle).
 */
#include "structural.h"
#include "../type_define_internal.h"

typedef struct {
  TVMFFIObject header;
  TVMFFIAny key;
  int64_t hash_i64;
} KeyObject;

_Static_assert(sizeof(KeyObject) == 48 && offsetof(KeyObject, hash_i64) == 40, "StructuralKey layout");

static int32_t g_key_index = -1;

static void key_destroy(void* self) { ffi_any_release_nested(&((KeyObject*)self)->key); }
FFI_DEFINE_DELETER(key_deleter, key_destroy)

static int key_alloc(TVMFFIObject** out) {
  KeyObject* k = (KeyObject*)ffi_object_alloc(sizeof(KeyObject), g_key_index, key_deleter);
  if (k == NULL) return -1;
  *out = &k->header;
  return 0;
}

static int key_create(TVMFFIObjectHandle* out) { return key_alloc((TVMFFIObject**)out); }

/* A key of args[0]; argument errors name `fname`. */
static int make_key(const char* fname, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  if (ffi_check_num_args(fname, num_args, 1) != 0) return -1;
  TVMFFIAny value;
  if (TVMFFIAnyViewToOwnedAny(&args[0], &value) != 0) return -1;
  uint64_t hash;
  TVMFFIObject* obj;
  if (ffi_structural_hash(&value, false, false, &hash) != 0 || key_alloc(&obj) != 0) {
    ffi_any_release(&value);
    return -1;
  }
  ((KeyObject*)obj)->key = value;
  ((KeyObject*)obj)->hash_i64 = (int64_t)hash;
  ffi_ret_object(result, obj);
  return 0;
}

/* ffi.StructuralKey(key) */
static int global_make_key(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  return make_key("ffi.StructuralKey", args, num_args, result);
}

/* The type's static `__ffi_init__` method (and attribute), as the reference's `refl::init`. */
static int init_key(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  return make_key("ffi.StructuralKey.__ffi_init__", args, num_args, result);
}

static bool keys_equal(const KeyObject* a, const KeyObject* b, int* error) {
  *error = 0;
  if (a == b) return true;
  if (a->hash_i64 != b->hash_i64) return false;
  bool equal = false;
  *error = ffi_structural_equal(&a->key, &b->key, false, false, &equal, NULL);
  return equal;
}

static bool is_key(const TVMFFIAny* v) { return v->type_index == g_key_index && v->v_obj != NULL; }

/* ffi.StructuralKeyEqual(a, b) -> bool */
static int global_key_equal(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  if (ffi_check_num_args("ffi.StructuralKeyEqual", num_args, 2) != 0) return -1;
  if (!is_key(&args[0]) || !is_key(&args[1])) {
    ffi_ret_bool(result, false);
    return 0;
  }
  int error;
  bool equal = keys_equal((const KeyObject*)args[0].v_obj, (const KeyObject*)args[1].v_obj, &error);
  if (error != 0) return -1;
  ffi_ret_bool(result, equal);
  return 0;
}

/* __any_hash__ / __any_equal__ as C entry points (map probing calls them inline). */
static TVMFFIAny key_any_hash(const TVMFFIAny* v) {
  TVMFFIAny out = ffi_any_none();
  out.type_index = kTVMFFIInt;
  out.v_int64 = ((const KeyObject*)v->v_obj)->hash_i64;
  return out;
}

static TVMFFIAny key_any_equal(const TVMFFIAny* a, const TVMFFIAny* b) {
  TVMFFIAny out = ffi_any_none();
  out.type_index = kTVMFFIBool;
  int error = 0;
  out.v_int64 = is_key(a) && is_key(b) && keys_equal((const KeyObject*)a->v_obj, (const KeyObject*)b->v_obj, &error);
  if (error != 0) { /* a map probe cannot report errors: unequal */
    ffi_discard_raised();
    out.v_int64 = 0;
  }
  return out;
}

static void set_ptr_attr(const char* attr, void* fn) {
  TVMFFIAny v = ffi_any_none();
  v.type_index = kTVMFFIOpaquePtr;
  v.v_ptr = fn;
  TVMFFIByteArray name = {attr, strlen(attr)};
  if (TVMFFITypeRegisterAttr(g_key_index, &name, &v) != 0) ffi_fatal("structural_key", "%s", attr);
}

/* __ffi_shallow_copy__(key) -> a new key holding the same value and hash. */
static int key_shallow_copy(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  TVMFFIObject* src;
  TVMFFIObject* obj;
  if (ffi_check_num_args("ffi.StructuralKey.__ffi_shallow_copy__", num_args, 1) != 0 ||
      ffi_arg_object("ffi.StructuralKey.__ffi_shallow_copy__", args, 0, g_key_index, &src) != 0 ||
      key_alloc(&obj) != 0) {
    return -1;
  }
  ((KeyObject*)obj)->key = ffi_any_retain(&((KeyObject*)src)->key);
  ((KeyObject*)obj)->hash_i64 = ((KeyObject*)src)->hash_i64;
  ffi_ret_object(result, obj);
  return 0;
}

void ffi_register_structural_key(void) {
  g_key_index = ffi_define_type("ffi.StructuralKey", kTVMFFIObject, key_create,
                                (int32_t)sizeof(KeyObject), kTVMFFISEqHashKindUnsupported);
  ffi_define_field(g_key_index, &(FfiFieldDef){.name = "key", .schema = "{\"type\":\"Any\"}",
                                               .offset = offsetof(KeyObject, key), .size = 16,
                                               .get = ffi_field_get_any, .set = ffi_field_set_any,
                                               .static_index = kTVMFFIAny});
  ffi_define_field(g_key_index, &(FfiFieldDef){.name = "hash_i64", .schema = "{\"type\":\"int\"}",
                                               .offset = offsetof(KeyObject, hash_i64), .size = 8,
                                               .get = ffi_field_get_i64, .set = ffi_field_set_i64,
                                               .static_index = kTVMFFIInt});
  set_ptr_attr("__any_hash__", (void*)key_any_hash);
  set_ptr_attr("__any_equal__", (void*)key_any_equal);
  ffi_define_attr_fn(g_key_index, "__ffi_shallow_copy__", key_shallow_copy);
  ffi_define_init(g_key_index, init_key,
                  "Constructor that takes any key and computes its structural hash");
  ffi_register_builtin("ffi.StructuralKey", global_make_key);
  ffi_register_builtin("ffi.StructuralKeyEqual", global_key_equal);
}
