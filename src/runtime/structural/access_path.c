/*
 * structural/access_path.c -- the ffi.reflection.AccessStep / AccessPath object types (spec
 * STRUCTURAL.md section 5): layouts, reflected fields, repr hooks, type methods, and the
 * builder the structural comparison uses for mismatch reports.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../container/container_internal.h"
#include "access_steps.h"
#include "structural.h"
#include "../type_define_internal.h"

typedef struct {
  TVMFFIObject header;
  int32_t kind;
  int32_t padding;
  TVMFFIAny key;
} StepObject;

typedef struct {
  TVMFFIObject header;
  TVMFFIObject* parent; /* AccessPath or NULL (root) */
  TVMFFIObject* step;   /* AccessStep or NULL (root) */
  int32_t depth;
  int32_t padding;
} PathObject;

_Static_assert(sizeof(StepObject) == 48 && offsetof(StepObject, key) == 32, "AccessStep layout");
_Static_assert(sizeof(PathObject) == 48 && offsetof(PathObject, depth) == 40, "AccessPath layout");

static int32_t g_step_index = -1;
static int32_t g_path_index = -1;

static void step_destroy(void* self) { ffi_any_release(&((StepObject*)self)->key); }
FFI_DEFINE_DELETER(step_deleter, step_destroy)

static void path_destroy(void* self) {
  PathObject* p = (PathObject*)self;
  if (p->parent != NULL) ffi_decref_nested(p->parent);
  if (p->step != NULL) ffi_decref_nested(p->step);
  p->parent = p->step = NULL;
}
FFI_DEFINE_DELETER(path_deleter, path_destroy)

static int step_new(int32_t kind, const TVMFFIAny* key, TVMFFIObject** out) {
  StepObject* s = (StepObject*)ffi_object_alloc(sizeof(StepObject), g_step_index, step_deleter);
  if (s == NULL) return -1;
  s->kind = kind;
  if (TVMFFIAnyViewToOwnedAny(key, &s->key) != 0) {
    ffi_decref(&s->header);
    return -1;
  }
  *out = &s->header;
  return 0;
}

/* Path = parent extended by step (steals step; parent retained). */
static int path_new(TVMFFIObject* parent, TVMFFIObject* step, TVMFFIObject** out) {
  PathObject* p = (PathObject*)ffi_object_alloc(sizeof(PathObject), g_path_index, path_deleter);
  if (p == NULL) {
    if (step != NULL) ffi_decref(step);
    return -1;
  }
  if (parent != NULL) ffi_incref(parent);
  p->parent = parent;
  p->step = step;
  p->depth = parent != NULL ? ((PathObject*)parent)->depth + 1 : 0;
  *out = &p->header;
  return 0;
}

int ffi_step_attr(int32_t kind, TVMFFIByteArray name, FfiStep* out) {
  out->kind = kind;
  return ffi_string_make(name.data, name.size, 0, &out->key);
}

int ffi_access_path_from_steps(const FfiStep* const* steps, size_t n, TVMFFIObject** out) {
  TVMFFIObject* path;
  if (path_new(NULL, NULL, &path) != 0) return -1;
  for (size_t i = 0; i < n; ++i) {
    if (steps[i] == NULL || steps[i]->kind == kStepNone) continue;
    TVMFFIObject *step, *next;
    if (step_new(steps[i]->kind, &steps[i]->key, &step) != 0 || path_new(path, step, &next) != 0) {
      ffi_decref(path);
      return -1;
    }
    ffi_decref(path);
    path = next;
  }
  *out = path;
  return 0;
}

/* ---- text ---- */

static int step_text(FfiBuf* b, const StepObject* s) {
  TVMFFIAny text = ffi_any_none();
  TVMFFIByteArray view;
  int rc = 0;
  switch (s->kind) {
    case kStepAttr:
      return ffi_string_view(&s->key, &view) ? (ffi_buf_puts(b, ".") || ffi_buf_append(b, view.data, view.size)) : -1;
    case kStepArrayItem:
      return ffi_buf_printf(b, "[%lld]", (long long)s->key.v_int64);
    case kStepArrayItemMissing:
      return ffi_buf_printf(b, "[<missing:%lld>]", (long long)s->key.v_int64);
    default:
      break;
  }
  if (ffi_repr_print(&s->key, &text) != 0) return -1;
  ffi_string_view(&text, &view);
  if (s->kind == kStepMapItem) {
    rc = ffi_buf_puts(b, "[") || ffi_buf_append(b, view.data, view.size) || ffi_buf_puts(b, "]");
  } else {
    rc = ffi_buf_puts(b, "[<missing:") || ffi_buf_append(b, view.data, view.size) ||
         ffi_buf_puts(b, ">]");
  }
  ffi_any_release(&text);
  return rc ? -1 : 0;
}

static int path_text(FfiBuf* b, const PathObject* p) {
  int32_t depth = p->depth;
  const StepObject** steps = (const StepObject**)calloc((size_t)depth + 1, sizeof(StepObject*));
  if (steps == NULL) return ffi_raise("MemoryError", "out of memory printing an AccessPath");
  for (const PathObject* q = p; q != NULL && q->depth > 0; q = (const PathObject*)q->parent) {
    steps[q->depth - 1] = (const StepObject*)q->step;
  }
  int rc = ffi_buf_puts(b, "<root>");
  for (int32_t i = 0; rc == 0 && i < depth; ++i) {
    if (steps[i] != NULL) rc = step_text(b, steps[i]);
  }
  free(steps);
  return rc;
}

/* ---- functions (type methods, repr hooks) ---- */

#define AP_FN(name) static int name(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result)

static int path_arg(const char* fname, const TVMFFIAny* args, int32_t i, PathObject** out) {
  return ffi_arg_object(fname, args, i, g_path_index, (TVMFFIObject**)out);
}

AP_FN(step_repr) {
  (void)self;
  TVMFFIObject* s;
  if (num_args < 1 || ffi_arg_object("AccessStep.__ffi_repr__", args, 0, g_step_index, &s) != 0) return -1;
  FfiBuf b = {NULL, 0, 0};
  if (step_text(&b, (StepObject*)s) != 0) {
    ffi_buf_free(&b);
    return -1;
  }
  return ffi_buf_to_str(&b, result);
}

AP_FN(path_repr) {
  (void)self;
  PathObject* p;
  if (num_args < 1 || path_arg("AccessPath.__ffi_repr__", args, 0, &p) != 0) return -1;
  FfiBuf b = {NULL, 0, 0};
  if (path_text(&b, p) != 0) {
    ffi_buf_free(&b);
    return -1;
  }
  return ffi_buf_to_str(&b, result);
}

/* __ffi_shallow_copy__: a new step or path holding the same fields. The reference registers one
 * for every copy-constructible type, so copy.copy and the structural mutator can copy these. */
AP_FN(step_shallow_copy) {
  (void)self;
  TVMFFIObject* s;
  if (ffi_check_num_args("ffi.reflection.AccessStep.__ffi_shallow_copy__", num_args, 1) != 0 ||
      ffi_arg_object("ffi.reflection.AccessStep.__ffi_shallow_copy__", args, 0, g_step_index, &s) != 0) {
    return -1;
  }
  TVMFFIObject* copy;
  if (step_new(((StepObject*)s)->kind, &((StepObject*)s)->key, &copy) != 0) return -1;
  ffi_ret_object(result, copy);
  return 0;
}

AP_FN(path_shallow_copy) {
  (void)self;
  PathObject* p;
  if (ffi_check_num_args("ffi.reflection.AccessPath.__ffi_shallow_copy__", num_args, 1) != 0 ||
      path_arg("ffi.reflection.AccessPath.__ffi_shallow_copy__", args, 0, &p) != 0) {
    return -1;
  }
  if (p->step != NULL) ffi_incref(p->step); /* path_new takes a reference of the step */
  TVMFFIObject* copy;
  if (path_new(p->parent, p->step, &copy) != 0) return -1;
  ffi_ret_object(result, copy);
  return 0;
}

AP_FN(path_root) {
  (void)self;
  (void)args;
  if (ffi_check_num_args("ffi.reflection.AccessPath._root", num_args, 0) != 0) return -1;
  TVMFFIObject* p;
  if (path_new(NULL, NULL, &p) != 0) return -1;
  ffi_ret_object(result, p);
  return 0;
}

static int extend(const char* fname, int32_t kind, int32_t expect, const TVMFFIAny* args,
                  int32_t num_args, TVMFFIAny* result) {
  PathObject* p;
  if (ffi_check_num_args(fname, num_args, 2) != 0 || path_arg(fname, args, 0, &p) != 0) return -1;
  TVMFFIAny key = args[1];
  if (expect == kTVMFFIInt) {
    int64_t i;
    if (ffi_arg_int(fname, args, 1, &i) != 0) return -1;
    key = ffi_any_none();
    key.type_index = kTVMFFIInt;
    key.v_int64 = i;
  } else if (expect == kTVMFFIStr) {
    TVMFFIByteArray s;
    if (ffi_arg_str(fname, args, 1, &s) != 0) return -1;
  }
  TVMFFIObject *step, *out;
  if (step_new(kind, &key, &step) != 0 || path_new(&p->header, step, &out) != 0) return -1;
  ffi_ret_object(result, out);
  return 0;
}

#define EXTEND_FN(fn, name, kind, expect) \
  AP_FN(fn) {                             \
    (void)self;                           \
    return extend("ffi.reflection.AccessPath." name, kind, expect, args, num_args, result); \
  }
EXTEND_FN(path_attr, "_attr", kStepAttr, kTVMFFIStr)
EXTEND_FN(path_array_item, "_array_item", kStepArrayItem, kTVMFFIInt)
EXTEND_FN(path_map_item, "_map_item", kStepMapItem, kTVMFFIAny)
EXTEND_FN(path_attr_missing, "_attr_missing", kStepAttrMissing, kTVMFFIStr)
EXTEND_FN(path_array_item_missing, "_array_item_missing", kStepArrayItemMissing, kTVMFFIInt)
EXTEND_FN(path_map_item_missing, "_map_item_missing", kStepMapItemMissing, kTVMFFIAny)

AP_FN(path_extend) {
  (void)self;
  const char* fname = "ffi.reflection.AccessPath._extend";
  PathObject* p;
  TVMFFIObject* s;
  if (ffi_check_num_args(fname, num_args, 2) != 0 || path_arg(fname, args, 0, &p) != 0 ||
      ffi_arg_object(fname, args, 1, g_step_index, &s) != 0) {
    return -1;
  }
  ffi_incref(s);
  TVMFFIObject* out;
  if (path_new(&p->header, s, &out) != 0) return -1;
  ffi_ret_object(result, out);
  return 0;
}

static bool step_equal(const StepObject* a, const StepObject* b) {
  if (a == b) return true;
  if (a == NULL || b == NULL || a->kind != b->kind) return false;
  return ffi_any_equal(&a->key, &b->key);
}

static bool path_equal(const PathObject* a, const PathObject* b) {
  if (a->depth != b->depth) return false;
  while (a != NULL && b != NULL && a != b) {
    if (!step_equal((const StepObject*)a->step, (const StepObject*)b->step)) return false;
    a = (const PathObject*)a->parent;
    b = (const PathObject*)b->parent;
  }
  return true;
}

AP_FN(path_path_equal) {
  (void)self;
  const char* fname = "ffi.reflection.AccessPath._path_equal";
  PathObject *a, *b;
  if (ffi_check_num_args(fname, num_args, 2) != 0 || path_arg(fname, args, 0, &a) != 0 ||
      path_arg(fname, args, 1, &b) != 0) {
    return -1;
  }
  ffi_ret_bool(result, path_equal(a, b));
  return 0;
}

AP_FN(path_is_prefix_of) {
  (void)self;
  const char* fname = "ffi.reflection.AccessPath._is_prefix_of";
  PathObject *a, *b;
  if (ffi_check_num_args(fname, num_args, 2) != 0 || path_arg(fname, args, 0, &a) != 0 ||
      path_arg(fname, args, 1, &b) != 0) {
    return -1;
  }
  while (b != NULL && b->depth > a->depth) b = (PathObject*)b->parent;
  ffi_ret_bool(result, b != NULL && path_equal(a, b));
  return 0;
}

AP_FN(path_to_steps) {
  (void)self;
  const char* fname = "ffi.reflection.AccessPath._to_steps";
  PathObject* p;
  if (ffi_check_num_args(fname, num_args, 1) != 0 || path_arg(fname, args, 0, &p) != 0) return -1;
  int32_t depth = p->depth;
  TVMFFIAny* items = (TVMFFIAny*)calloc((size_t)depth + 1, sizeof(TVMFFIAny));
  if (items == NULL) return ffi_raise("MemoryError", "out of memory in _to_steps");
  for (PathObject* q = p; q != NULL && q->depth > 0; q = (PathObject*)q->parent) {
    items[q->depth - 1] = q->step != NULL ? ffi_any_from_object(q->step) : ffi_any_none();
  }
  TVMFFIObject* arr;
  int rc = ffi_array_new(items, depth, &arr);
  free(items);
  if (rc != 0) return -1;
  ffi_ret_object(result, arr);
  return 0;
}

/* ---- reflection: fields, creator, registration ---- */

static int get_obj(void* addr, TVMFFIAny* out) {
  TVMFFIObject* obj = *(TVMFFIObject**)addr;
  if (obj != NULL) ffi_incref(obj);
  *out = ffi_any_from_object(obj);
  return 0;
}
static int set_obj(void* addr, const TVMFFIAny* v) {
  TVMFFIObject* obj = NULL;
  if (v->type_index != kTVMFFINone) {
    if (!ffi_is_object_index(v->type_index)) {
      TVMFFIByteArray k = ffi_type_key_of(v->type_index);
      return ffi_raise("TypeError", "Cannot convert from type `%.*s` to `Object`", (int)k.size, k.data);
    }
    obj = v->v_obj;
    ffi_incref(obj);
  }
  TVMFFIObject* old = *(TVMFFIObject**)addr;
  *(TVMFFIObject**)addr = obj;
  if (old != NULL) ffi_decref(old);
  return 0;
}

static int step_create(TVMFFIObjectHandle* out) {
  TVMFFIAny none = ffi_any_none();
  return step_new(0, &none, (TVMFFIObject**)out);
}
static int path_create(TVMFFIObjectHandle* out) { return path_new(NULL, NULL, (TVMFFIObject**)out); }

static int32_t alloc_index(const char* key, int32_t depth, int32_t parent) {
  TVMFFIByteArray k = {key, strlen(key)};
  return TVMFFITypeGetOrAllocIndex(&k, -1, depth, 0, 1, parent);
}

void ffi_register_access_path_types(void) {
  /* The reference's headers allocate these six keys first, in this order, so they take the first
   * dynamic indices as there (128..133, from kTVMFFIDynObjectBegin) whoever registers the enum
   * types. */
  int32_t enum_base;
  alloc_index("ffi.EnumState", 1, kTVMFFIObject);
  enum_base = alloc_index("ffi.Enum", 1, kTVMFFIObject);
  alloc_index("ffi.IntEnum", 2, enum_base);
  alloc_index("ffi.StrEnum", 2, enum_base);
  g_step_index = ffi_define_type("ffi.reflection.AccessStep", kTVMFFIObject, step_create, 48,
                                 kTVMFFISEqHashKindConstTreeNode);
  ffi_define_field(g_step_index, &(FfiFieldDef){.name = "kind", .schema = "{\"type\":\"int\"}",
                                                .offset = offsetof(StepObject, kind), .size = 4,
                                                .get = ffi_field_get_i32, .set = ffi_field_set_i32,
                                                .static_index = kTVMFFIInt});
  ffi_define_field(g_step_index, &(FfiFieldDef){.name = "key", .schema = "{\"type\":\"Any\"}",
                                                .offset = offsetof(StepObject, key), .size = 16,
                                                .get = ffi_field_get_any, .set = ffi_field_set_any,
                                                .static_index = kTVMFFIAny});
  ffi_define_attr_fn(g_step_index, "__ffi_repr__", step_repr);
  ffi_define_attr_fn(g_step_index, "__ffi_shallow_copy__", step_shallow_copy);

  g_path_index = ffi_define_type("ffi.reflection.AccessPath", kTVMFFIObject, path_create, 48,
                                 kTVMFFISEqHashKindConstTreeNode);
  ffi_define_field(g_path_index,
                   &(FfiFieldDef){.name = "parent",
                                  .schema = "{\"type\":\"Optional\",\"args\":[{\"type\":\"ffi.Object\"}]}",
                                  .offset = offsetof(PathObject, parent), .size = 8, .get = get_obj,
                                  .set = set_obj, .static_index = kTVMFFIAny});
  ffi_define_field(
      g_path_index,
      &(FfiFieldDef){.name = "step",
                     .schema = "{\"type\":\"Optional\",\"args\":[{\"type\":\"ffi.reflection.AccessStep\"}]}",
                     .offset = offsetof(PathObject, step), .size = 8, .get = get_obj, .set = set_obj,
                     .static_index = kTVMFFIAny});
  ffi_define_field(g_path_index, &(FfiFieldDef){.name = "depth", .schema = "{\"type\":\"int\"}",
                                                .offset = offsetof(PathObject, depth), .size = 4,
                                                .get = ffi_field_get_i32, .set = ffi_field_set_i32,
                                                .static_index = kTVMFFIInt});
  ffi_define_attr_fn(g_path_index, "__ffi_repr__", path_repr);
  ffi_define_attr_fn(g_path_index, "__ffi_shallow_copy__", path_shallow_copy);
  ffi_define_method(g_path_index, "_root", path_root, true, NULL);
  ffi_define_method(g_path_index, "_extend", path_extend, false, NULL);
  ffi_define_method(g_path_index, "_attr", path_attr, false, NULL);
  ffi_define_method(g_path_index, "_array_item", path_array_item, false, NULL);
  ffi_define_method(g_path_index, "_map_item", path_map_item, false, NULL);
  ffi_define_method(g_path_index, "_attr_missing", path_attr_missing, false, NULL);
  ffi_define_method(g_path_index, "_array_item_missing", path_array_item_missing, false, NULL);
  ffi_define_method(g_path_index, "_map_item_missing", path_map_item_missing, false, NULL);
  ffi_define_method(g_path_index, "_is_prefix_of", path_is_prefix_of, false, NULL);
  ffi_define_method(g_path_index, "_to_steps", path_to_steps, false, NULL);
  ffi_define_method(g_path_index, "_path_equal", path_path_equal, false, NULL);
}
