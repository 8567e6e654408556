/*
 * objects_init.c -- explicit `__ffi_init__` constructors of fixture types (C++ `init<Args...>`:
 * every field, positionally, with typed-function messages). Auto-generated KWARGS inits come
 * from the runtime (ffi._RegisterFFIInit), as for C++ libraries.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testing_objects.h"

#define MAX_INIT_FIELDS 64

typedef struct {
  const TestingFieldDef* items[MAX_INIT_FIELDS];
  int size;
} FieldList;

static void collect(const TestingTypeDef* def, FieldList* out) {
  if (def == NULL) return;
  collect(def->parent, out);
  for (int i = 0; i < def->num_fields && out->size < MAX_INIT_FIELDS; ++i) {
    out->items[out->size++] = &def->fields[i];
  }
}

/* ---- explicit (C++ `init<Args...>`) constructors: every field, positionally, in order ---- */

static const char* kind_name(const TestingFieldDef* f) {
  switch (f->kind) {
    case TF_I64:
    case TF_I32: return "int";
    case TF_F64:
    case TF_F32: return "float";
    case TF_BOOL: return "bool";
    case TF_STR: return "str";
    case TF_ANY: return "Any";
    default: return f->obj_key;
  }
}

/* "<key>.__ffi_init__(0: int, 1: str) -> ffi.Object" into buf. */
static void explicit_signature(const FieldList* all, const char* key, char* buf, size_t cap) {
  size_t n = (size_t)snprintf(buf, cap, "%s.__ffi_init__(", key);
  for (int i = 0; i < all->size && n < cap; ++i) {
    n += (size_t)snprintf(buf + n, cap - n, "%s%d: %s", i ? ", " : "", i, kind_name(all->items[i]));
  }
  if (n < cap) snprintf(buf + n, cap - n, ") -> ffi.Object");
}

int testing_explicit_init_call(void* self, const TVMFFIAny* args, int32_t num_args,
                               TVMFFIAny* result) {
  const TestingTypeDef* def = (const TestingTypeDef*)self;
  FieldList all = {{0}, 0};
  collect(def, &all);
  char sig[512];
  if (num_args != all.size) {
    explicit_signature(&all, def->key, sig, sizeof(sig));
    return testing_raise("TypeError",
                         "Mismatched number of arguments when calling: `%s`. Expected %d but got "
                         "%d arguments",
                         sig, all.size, (int)num_args);
  }
  TVMFFIObject* obj = testing_object_new(def);
  if (obj == NULL) return -1;
  /* Right to left, as GCC converts a C++ constructor's arguments: the last bad one is named. */
  for (int i = all.size - 1; i >= 0; --i) {
    if (testing_field_set(all.items[i], obj, &args[i]) != 0) {
      TVMFFIErrorMoveFromRaised(NULL);
      TVMFFIObjectDecRef(obj);
      explicit_signature(&all, def->key, sig, sizeof(sig));
      TVMFFIByteArray actual = testing_type_key(args[i].type_index);
      return testing_raise("TypeError",
                           "Mismatched type on argument #%d when calling: `%s`. Expected `%s` but "
                           "got `%.*s`",
                           i, sig, kind_name(all.items[i]), (int)actual.size, actual.data);
    }
  }
  result->type_index = obj->type_index;
  result->v_obj = obj;
  return 0;
}
