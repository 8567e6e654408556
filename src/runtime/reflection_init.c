/*
 * reflection_init.c -- ffi._RegisterFFIInit(type_index): gives a reflected type an
 * auto-generated `__ffi_init__` type attribute. C++ libraries call it (refl::ObjectDef does when a
 * type has a creator and no explicit init), so do C libraries.
 *
 * The generated init takes positional values, then optionally the KWARGS marker
 * (ffi.GetKwargsObject) and name/value pairs. Positional slots are the init fields that are not
 * kw_only, required ones before defaulted ones (ancestors' first within each group), matching
 * the Python signature bindings generate. Fields left out take their reflection default;
 * init=False fields without one keep what the creator put there.
 */
#include <stdlib.h>
#include <string.h>

#include "reflection_internal.h"

typedef struct {
  int32_t type_index;
} AutoInit;

static TVMFFIObject* kwargs_marker(void) {
  static TVMFFIObject* marker = NULL; /* the runtime's singleton: never freed */
  if (marker == NULL) {
    TVMFFIByteArray name = {"ffi.GetKwargsObject", 19};
    TVMFFIObjectHandle func = NULL;
    if (TVMFFIFunctionGetGlobal(&name, &func) != 0 || func == NULL) return NULL;
    TVMFFIAny out = ffi_any_none();
    if (TVMFFIFunctionCall(func, NULL, 0, &out) == 0 && ffi_is_object_index(out.type_index)) {
      marker = out.v_obj;
      ffi_decref(marker); /* a static object: the reference kept is the runtime's own */
    }
    ffi_decref((TVMFFIObject*)func);
  }
  return marker;
}

static bool is_init(const TVMFFIFieldInfo* f) {
  return !(f->flags & kTVMFFIFieldFlagBitMaskInitOff);
}
static bool is_kw_only(const TVMFFIFieldInfo* f) {
  return (f->flags & kTVMFFIFieldFlagBitMaskKwOnly) != 0;
}
static bool has_default(const TVMFFIFieldInfo* f) {
  return (f->flags & kTVMFFIFieldFlagBitMaskHasDefault) != 0;
}

/* `text` with two spaces after each newline (malloc'ed; NULL when out of memory), so a
 * multi-line cause keeps its own nesting under the line that introduces it. */
static char* indent_lines(TVMFFIByteArray text, size_t* out_size) {
  size_t newlines = 0;
  for (size_t i = 0; i < text.size; ++i) newlines += text.data[i] == '\n';
  char* out = (char*)malloc(text.size + 2 * newlines + 1);
  if (out == NULL) return NULL;
  size_t n = 0;
  for (size_t i = 0; i < text.size; ++i) {
    out[n++] = text.data[i];
    if (text.data[i] == '\n') out[n++] = ' ', out[n++] = ' ';
  }
  *out_size = n;
  return out;
}

/* Re-raises the pending error as "<T>.__ffi_init__() <what> '<name>':\n  <message>", every
 * line of the message indented, where `what` is "field" (a given value) or "default for field"
 * (the field's default). */
static int field_error(const TVMFFITypeInfo* info, const TVMFFIFieldInfo* f, const char* what) {
  TVMFFIObjectHandle err = NULL;
  TVMFFIErrorMoveFromRaised(&err);
  TVMFFIByteArray message = {"", 0};
  if (err != NULL) message = TVMFFIErrorGetCellPtr(err)->message;
  size_t size = message.size;
  char* indented = indent_lines(message, &size);
  int rc = ffi_raise("TypeError", "%.*s.__ffi_init__() %s '%.*s':\n  %.*s",
                     (int)info->type_key.size, info->type_key.data, what, (int)f->name.size,
                     f->name.data, (int)size, indented != NULL ? indented : message.data);
  free(indented);
  if (err != NULL) ffi_decref((TVMFFIObject*)err);
  return rc;
}

static int find_marker(const TVMFFIAny* args, int32_t num_args) {
  TVMFFIObject* marker = kwargs_marker();
  for (int32_t i = 0; i < num_args; ++i) {
    if (marker != NULL && ffi_is_object_index(args[i].type_index) && args[i].v_obj == marker) {
      return i;
    }
  }
  return num_args;
}

static int set_keywords(TVMFFIObject* obj, const TVMFFITypeInfo* info, FfiFieldTable* all,
                        const TVMFFIAny* args, int32_t begin, int32_t end) {
#define KEY_FMT "%.*s.__ffi_init__() "
#define KEY_ARGS (int)info->type_key.size, info->type_key.data
  if ((end - begin) % 2 != 0) {
    return ffi_raise("TypeError", KEY_FMT "KWARGS requires an even number of key-value arguments",
                     KEY_ARGS);
  }
  for (int32_t i = begin; i < end; i += 2) {
    TVMFFIByteArray key;
    if (!ffi_string_view(&args[i], &key)) {
      TVMFFIByteArray actual = ffi_type_key_of(args[i].type_index);
      return ffi_raise("TypeError", "Cannot convert from type `%.*s` to `str`", (int)actual.size,
                       actual.data);
    }
    int found = -1;
    for (int j = all->size - 1; j >= 0 && found < 0; --j) {
      const TVMFFIFieldInfo* f = all->items[j];
      if (is_init(f) && key.size > 0 && f->name.size == key.size &&
          memcmp(f->name.data, key.data, key.size) == 0) {
        found = j;
      }
    }
    if (found < 0) {
      return ffi_raise("TypeError", KEY_FMT "got an unexpected keyword argument '%.*s'", KEY_ARGS,
                       (int)key.size, key.data);
    }
    const TVMFFIFieldInfo* f = all->items[found];
    if (all->set[found]) {
      return ffi_raise("TypeError", KEY_FMT "got multiple values for argument '%.*s'", KEY_ARGS,
                       (int)f->name.size, f->name.data);
    }
    if (ffi_reflection_set_field(obj, f, &args[i + 1]) != 0) return field_error(info, f, "field");
    all->set[found] = true;
  }
  return 0;
}

static int fill(TVMFFIObject* obj, const TVMFFITypeInfo* info, const TVMFFIAny* args,
                int32_t num_args) {
  FfiFieldTable all;
  all.size = 0;
  if (ffi_reflection_collect_fields(info, &all) != 0) return -1;
  int positional[FFI_REFLECTION_MAX_FIELDS];
  int num_slots = 0;
  for (int pass = 0; pass < 2; ++pass) { /* required first, then defaulted */
    for (int j = 0; j < all.size; ++j) {
      const TVMFFIFieldInfo* f = all.items[j];
      if (is_init(f) && !is_kw_only(f) && has_default(f) == (pass == 1)) positional[num_slots++] = j;
    }
  }
  int32_t num_pos = find_marker(args, num_args);
  if (num_pos > num_slots) {
    return ffi_raise("TypeError",
                     KEY_FMT "takes at most %d positional argument(s), but %d were given",
                     KEY_ARGS, num_slots, (int)num_pos);
  }
  for (int32_t i = 0; i < num_pos; ++i) {
    const TVMFFIFieldInfo* f = all.items[positional[i]];
    if (ffi_reflection_set_field(obj, f, &args[i]) != 0) return field_error(info, f, "field");
    all.set[positional[i]] = true;
  }
  if (num_pos < num_args && set_keywords(obj, info, &all, args, num_pos + 1, num_args) != 0) {
    return -1;
  }
  for (int j = 0; j < all.size; ++j) {
    const TVMFFIFieldInfo* f = all.items[j];
    if (all.set[j]) continue;
    if (has_default(f)) {
      if (ffi_reflection_fill_default(obj, info, f) != 0) {
        return field_error(info, f, "default for field");
      }
    } else if (is_init(f)) {
      return ffi_raise("TypeError", KEY_FMT "missing required %sargument: '%.*s'", KEY_ARGS,
                       is_kw_only(f) ? "keyword-only " : "", (int)f->name.size, f->name.data);
    }
  }
  return 0;
#undef KEY_FMT
#undef KEY_ARGS
}

static int auto_init_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(((AutoInit*)self)->type_index);
  TVMFFIObject* obj = NULL;
  if (ffi_reflection_create_empty(info, &obj) != 0) return -1;
  if (fill(obj, info, args, num_args) != 0) {
    ffi_decref(obj);
    return -1;
  }
  ffi_ret_object(result, obj);
  return 0;
}

static void auto_init_free(void* self) {
  free(self);
}

/* ffi._RegisterFFIInit(type_index): registers the generated init as the `__ffi_init__` attr. */
static int register_ffi_init(void* self, const TVMFFIAny* args, int32_t num_args,
                             TVMFFIAny* result) {
  (void)self;
  (void)result;
  static const char kName[] = "ffi._RegisterFFIInit";
  int64_t type_index;
  if (ffi_check_num_args(kName, num_args, 1) != 0 || ffi_arg_int(kName, args, 0, &type_index) != 0) {
    return -1;
  }
  if (type_index < kTVMFFIStaticObjectBegin || type_index > INT32_MAX ||
      !ffi_type_index_is_registered((int32_t)type_index)) {
    return ffi_raise("ValueError", "%s: %lld is not a registered object type index", kName,
                     (long long)type_index);
  }
  AutoInit* state = (AutoInit*)malloc(sizeof(AutoInit));
  if (state == NULL) return ffi_raise("MemoryError", "%s: out of memory", kName);
  state->type_index = (int32_t)type_index;
  TVMFFIObjectHandle func = NULL;
  if (TVMFFIFunctionCreate(state, auto_init_call, auto_init_free, &func) != 0) {
    free(state);
    return -1;
  }
  TVMFFIByteArray attr = {"__ffi_init__", 12};
  TVMFFIAny value = ffi_any_from_object((TVMFFIObject*)func);
  int rc = TVMFFITypeRegisterAttr((int32_t)type_index, &attr, &value);
  ffi_decref((TVMFFIObject*)func);
  return rc;
}

void ffi_register_reflection_init_globals(void) {
  ffi_register_builtin("ffi._RegisterFFIInit", register_ffi_init);
}
