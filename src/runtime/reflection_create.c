/*
 * reflection_create.c -- ffi.MakeObjectFromPackedArgs(type, name0, value0, ...): makes an
 * object of any reflected type from its field values (what tvm_ffi.testing.create_object and
 * deserializers use). `type` is a type key or a type index (compilers such as TVM pass the
 * static index they already hold).
 *
 * Steps: the type's native creator (metadata) or its __ffi_new__ type attribute makes an empty
 * instance; each named field is written through its reflected setter (read-only and init=False
 * fields included); every field left out takes its reflection default (or the result of its
 * default factory). A field with neither is an error, whatever the creator put there.
 */
#include <stdint.h>
#include <string.h>

#include "reflection_internal.h"

#define MAX_FIELDS FFI_REFLECTION_MAX_FIELDS

static const char kName[] = "ffi.MakeObjectFromPackedArgs";

/* Ancestors' fields first, then the type's own. */
int ffi_reflection_collect_fields(const TVMFFITypeInfo* info, FfiFieldTable* out) {
  for (int32_t d = 0; d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* level = d < info->type_depth ? info->type_ancestors[d] : info;
    for (int32_t i = 0; i < level->num_fields; ++i) {
      if (out->size == MAX_FIELDS) {
        return ffi_raise("RuntimeError", "%s: type `%.*s` has more than %d fields", kName,
                         (int)info->type_key.size, info->type_key.data, MAX_FIELDS);
      }
      out->set[out->size] = false;
      out->items[out->size++] = &level->fields[i];
    }
  }
  return 0;
}

int ffi_reflection_set_field(TVMFFIObject* obj, const TVMFFIFieldInfo* field,
                             const TVMFFIAny* value) {
  void* addr = (char*)obj + field->offset;
  if (field->setter == NULL) {
    return ffi_raise("TypeError", "Field `%.*s` has no setter", (int)field->name.size,
                     field->name.data);
  }
  if (!(field->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj)) {
    return ((TVMFFIFieldSetter)field->setter)(addr, value);
  }
  TVMFFIAny args[2];
  args[0] = ffi_any_none();
  args[0].type_index = kTVMFFIOpaquePtr;
  args[0].v_ptr = addr;
  args[1] = *value;
  TVMFFIAny ignored = ffi_any_none();
  int rc = TVMFFIFunctionCall(field->setter, args, 2, &ignored);
  if (rc == 0) ffi_any_release(&ignored);
  return rc;
}

/* Empty instance from the native creator or the __ffi_new__ type attribute (owned). */
int ffi_reflection_create_empty(const TVMFFITypeInfo* info, TVMFFIObject** out) {
  *out = NULL;
  if (info->metadata != NULL && info->metadata->creator != NULL) {
    return info->metadata->creator((TVMFFIObjectHandle*)out);
  }
  TVMFFIByteArray attr = {"__ffi_new__", 11};
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&attr);
  int32_t i = info->type_index;
  if (column != NULL && i >= column->begin_index && i < column->begin_index + column->size &&
      column->data[i - column->begin_index].type_index == kTVMFFIFunction) {
    TVMFFIAny result = ffi_any_none();
    if (TVMFFIFunctionCall(column->data[i - column->begin_index].v_obj, NULL, 0, &result) != 0) {
      return -1;
    }
    if (!ffi_is_object_index(result.type_index) || result.v_obj == NULL) {
      ffi_any_release(&result);
      return ffi_raise("RuntimeError", "__ffi_new__ of `%.*s` did not return an object",
                       (int)info->type_key.size, info->type_key.data);
    }
    *out = result.v_obj;
    return 0;
  }
  return ffi_raise("RuntimeError",
                   "Type `%.*s` does not support reflection creation (no native creator or "
                   "__ffi_new__ type attr)",
                   (int)info->type_key.size, info->type_key.data);
}

int ffi_reflection_fill_default(TVMFFIObject* obj, const TVMFFITypeInfo* info,
                        const TVMFFIFieldInfo* field) {
  if (!(field->flags & kTVMFFIFieldFlagBitMaskHasDefault)) {
    return ffi_raise("TypeError", "Required field `%.*s` not set in type `%.*s`",
                     (int)field->name.size, field->name.data, (int)info->type_key.size,
                     info->type_key.data);
  }
  if (!(field->flags & kTVMFFIFieldFlagBitMaskDefaultFromFactory)) {
    return ffi_reflection_set_field(obj, field, &field->default_value_or_factory);
  }
  if (field->default_value_or_factory.type_index != kTVMFFIFunction) {
    return ffi_raise("TypeError", "default factory of field `%.*s` is not a function",
                     (int)field->name.size, field->name.data);
  }
  TVMFFIAny value = ffi_any_none();
  if (TVMFFIFunctionCall(field->default_value_or_factory.v_obj, NULL, 0, &value) != 0) return -1;
  int rc = ffi_reflection_set_field(obj, field, &value);
  ffi_any_release(&value);
  return rc;
}

static int fill(TVMFFIObject* obj, const TVMFFITypeInfo* info, const TVMFFIAny* args,
                int32_t num_args) {
  FfiFieldTable table;
  table.size = 0;
  if (ffi_reflection_collect_fields(info, &table) != 0) return -1;
  for (int32_t i = 1; i + 1 < num_args; i += 2) {
    TVMFFIByteArray name;
    if (!ffi_string_view(&args[i], &name)) {
      TVMFFIByteArray actual = ffi_type_key_of(args[i].type_index);
      return ffi_raise("TypeError", "Cannot convert from type `%.*s` to `str`", (int)actual.size,
                       actual.data);
    }
    int found = -1;
    for (int j = table.size - 1; j >= 0 && found < 0; --j) { /* own fields shadow ancestors' */
      if (table.items[j]->name.size == name.size &&
          memcmp(table.items[j]->name.data, name.data, name.size) == 0) {
        found = j;
      }
    }
    if (found < 0) {
      return ffi_raise("TypeError", "Type `%.*s` does not have field `%.*s`",
                       (int)info->type_key.size, info->type_key.data, (int)name.size, name.data);
    }
    if (ffi_reflection_set_field(obj, table.items[found], &args[i + 1]) != 0) return -1;
    table.set[found] = true;
  }
  for (int j = 0; j < table.size; ++j) {
    if (!table.set[j] && ffi_reflection_fill_default(obj, info, table.items[j]) != 0) return -1;
  }
  return 0;
}

static int make_object_from_packed_args(void* self, const TVMFFIAny* args, int32_t num_args,
                                        TVMFFIAny* result) {
  (void)self;
  TVMFFIByteArray key;
  if (num_args < 1 || num_args % 2 != 1) {
    return ffi_raise("TypeError", "%s expects a type key and name/value pairs, got %d arguments",
                     kName, (int)num_args);
  }
  int32_t type_index;
  if (args[0].type_index == kTVMFFIInt) {
    /* An unknown index is the caller's error, not a reason to abort as TVMFFIGetTypeInfo does. */
    int64_t given = args[0].v_int64;
    if (given < 0 || given > INT32_MAX || !ffi_type_index_is_registered((int32_t)given)) {
      return ffi_raise("ValueError", "%s: no type has index %lld", kName, (long long)given);
    }
    type_index = (int32_t)given;
  } else {
    if (ffi_arg_str(kName, args, 0, &key) != 0) return -1;
    if (TVMFFITypeKeyToIndex(&key, &type_index) != 0) {
      TVMFFIErrorMoveFromRaised(NULL);
      return ffi_raise("RuntimeError", "Cannot find type `%.*s`", (int)key.size, key.data);
    }
  }
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(type_index);
  TVMFFIObject* obj = NULL;
  if (ffi_reflection_create_empty(info, &obj) != 0) return -1;
  if (fill(obj, info, args, num_args) != 0) {
    ffi_decref(obj);
    return -1;
  }
  ffi_ret_object(result, obj);
  return 0;
}

void ffi_register_reflection_globals(void) {
  ffi_register_builtin(kName, make_object_from_packed_args);
}
