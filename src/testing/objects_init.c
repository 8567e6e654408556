/*
 * objects_init.c -- the auto-generated __ffi_init__ of fixture types (TESTING_FIXTURES.md 3.4).
 *
 * Protocol: positional values, then optionally the core.KWARGS marker followed by name/value
 * pairs. Positional slots are the init fields that are not kw_only, required ones first (parent
 * fields before child fields within each group), matching the generated Python signature.
 * Fields left out take their reflection default; init=False fields without one keep what the
 * creator put there. Messages follow the reference wording tests match on.
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

static bool is_init(const TestingFieldDef* f) {
  return !(f->flags & kTVMFFIFieldFlagBitMaskInitOff);
}
static bool is_kw_only(const TestingFieldDef* f) {
  return (f->flags & kTVMFFIFieldFlagBitMaskKwOnly) != 0;
}

/* Re-raises the pending error as "<T>.__ffi_init__() field '<name>':\n  <message>". */
static int field_error(const TestingTypeDef* def, const TestingFieldDef* f) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  if (err == NULL) return testing_raise("TypeError", "%s.__ffi_init__() field '%s'", def->key, f->name);
  const TVMFFIErrorCell* cell = TVMFFIErrorGetCellPtr(err);
  int rc = testing_raise("TypeError", "%s.__ffi_init__() field '%s':\n  %.*s", def->key, f->name,
                         (int)cell->message.size, cell->message.data);
  TVMFFIObjectDecRef(err);
  return rc;
}

static bool key_of(const TVMFFIAny* v, TVMFFIByteArray* out) {
  if (v->type_index == kTVMFFISmallStr) {
    *out = TVMFFISmallBytesGetContentByteArray(v);
    return true;
  }
  if (v->type_index == kTVMFFIStr) {
    *out = *TVMFFIBytesGetByteArrayPtr(v->v_obj);
    return true;
  }
  if (v->type_index == kTVMFFIRawStr) { /* Python passes str as a borrowed C string */
    out->data = v->v_c_str;
    out->size = strlen(v->v_c_str);
    return true;
  }
  if (v->type_index == kTVMFFIByteArrayPtr) {
    *out = *(const TVMFFIByteArray*)v->v_ptr;
    return true;
  }
  return false;
}

static int set_default(const TestingFieldDef* f, TVMFFIObject* obj) {
  TVMFFIAny value;
  memset(&value, 0, sizeof(value));
  switch (f->dkind) {
    case TD_INT:
      value.type_index = kTVMFFIInt;
      value.v_int64 = f->dint;
      break;
    case TD_FLOAT:
      value.type_index = kTVMFFIFloat;
      value.v_float64 = f->dfloat;
      break;
    case TD_STR:
      value = testing_view_cstr(f->dstr);
      break;
    default:
      break; /* None */
  }
  return testing_field_set(f, obj, &value);
}

/* Fills `obj` from the arguments; returns 0 or -1 with the error raised. */
static int fill(const TestingTypeDef* def, TVMFFIObject* obj, const TVMFFIAny* args,
                int32_t num_args) {
  FieldList all = {{0}, 0};
  collect(def, &all);
  FieldList positional = {{0}, 0};
  for (int pass = 0; pass < 2; ++pass) { /* required first, then defaulted */
    for (int i = 0; i < all.size; ++i) {
      const TestingFieldDef* f = all.items[i];
      bool has_default = f->dkind != TD_NONE;
      if (is_init(f) && !is_kw_only(f) && has_default == (pass == 1)) {
        positional.items[positional.size++] = f;
      }
    }
  }
  TVMFFIObject* marker = testing_kwargs_marker();
  int32_t num_pos = num_args;
  for (int32_t i = 0; i < num_args; ++i) {
    if (marker != NULL && args[i].type_index >= kTVMFFIStaticObjectBegin &&
        args[i].v_obj == marker) {
      num_pos = i;
      break;
    }
  }
  if (num_pos > positional.size) {
    return testing_raise("TypeError",
                         "%s.__ffi_init__() takes at most %d positional argument(s), but %d were "
                         "given",
                         def->key, positional.size, (int)num_pos);
  }
  bool set[MAX_INIT_FIELDS] = {false};
  for (int32_t i = 0; i < num_pos; ++i) {
    const TestingFieldDef* f = positional.items[i];
    if (testing_field_set(f, obj, &args[i]) != 0) return field_error(def, f);
    for (int j = 0; j < all.size; ++j) set[j] |= all.items[j] == f;
  }
  if (num_pos < num_args) {
    int32_t rest = num_args - num_pos - 1;
    if (rest % 2 != 0) {
      return testing_raise("TypeError",
                           "%s.__ffi_init__() KWARGS requires an even number of key-value "
                           "arguments",
                           def->key);
    }
    for (int32_t i = num_pos + 1; i < num_args; i += 2) {
      TVMFFIByteArray key;
      if (!key_of(&args[i], &key)) {
        TVMFFIByteArray actual = testing_type_key(args[i].type_index);
        return testing_raise("TypeError", "Cannot convert from type `%.*s` to `str`",
                             (int)actual.size, actual.data);
      }
      int found = -1;
      for (int j = 0; j < all.size; ++j) {
        const TestingFieldDef* f = all.items[j];
        if (is_init(f) && strlen(f->name) == key.size && memcmp(f->name, key.data, key.size) == 0) {
          found = j;
        }
      }
      if (found < 0 || key.size == 0) {
        return testing_raise("TypeError",
                             "%s.__ffi_init__() got an unexpected keyword argument '%.*s'",
                             def->key, (int)key.size, key.data);
      }
      if (set[found]) {
        return testing_raise("TypeError", "%s.__ffi_init__() got multiple values for argument '%s'",
                             def->key, all.items[found]->name);
      }
      if (testing_field_set(all.items[found], obj, &args[i + 1]) != 0) {
        return field_error(def, all.items[found]);
      }
      set[found] = true;
    }
  }
  for (int j = 0; j < all.size; ++j) {
    const TestingFieldDef* f = all.items[j];
    if (set[j]) continue;
    if (f->dkind != TD_NONE) {
      if (set_default(f, obj) != 0) return field_error(def, f);
    } else if (is_init(f)) {
      return testing_raise("TypeError", "%s.__ffi_init__() missing required %sargument: '%s'",
                           def->key, is_kw_only(f) ? "keyword-only " : "", f->name);
    }
  }
  return 0;
}

int testing_auto_init_call(void* self, const TVMFFIAny* args, int32_t num_args,
                           TVMFFIAny* result) {
  const TestingTypeDef* def = (const TestingTypeDef*)self;
  TVMFFIObject* obj = testing_object_new(def);
  if (obj == NULL) return -1;
  if (fill(def, obj, args, num_args) != 0) {
    TVMFFIObjectDecRef(obj);
    return -1;
  }
  result->type_index = obj->type_index;
  result->v_obj = obj;
  return 0;
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
  for (int i = 0; i < all.size; ++i) {
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
