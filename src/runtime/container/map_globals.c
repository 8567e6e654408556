/*
 * container/map_globals.c -- the ffi.Map* and ffi.Dict* global functions: construction, size,
 * lookups (KeyError names the key), Dict's in-place writes (and a Map's, for our headers' Map::Set
 * on a map held once), and the forward iterator functor.
 * The table itself is map.c; this file goes through its position API (container_internal.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "container_internal.h"

/* ---- argument helpers and messages ---- */

/* Map* readers accept a Dict as well (both are "mappings"); Dict* writers only a Dict. */
static int mapping_arg(const char* fname, const TVMFFIAny* args, int32_t i, bool dict_only,
                       TVMFFIObject** out) {
  int32_t t = args[i].type_index;
  int32_t want = dict_only ? kTVMFFIDict : (t == kTVMFFIDict ? kTVMFFIDict : kTVMFFIMap);
  TVMFFIObject* obj;
  if (ffi_arg_object(fname, args, i, want, &obj) != 0) return -1;
  *out = obj;
  return 0;
}

/* Writes a short rendering of key for a KeyError. */
static void describe_key(const TVMFFIAny* key, char* buf, size_t n) {
  TVMFFIByteArray s;
  if (key->type_index == kTVMFFIInt) {
    snprintf(buf, n, "%" PRId64, key->v_int64);
  } else if (key->type_index == kTVMFFIBool) {
    snprintf(buf, n, "%s", key->v_int64 ? "True" : "False");
  } else if (key->type_index == kTVMFFIFloat) {
    snprintf(buf, n, "%g", key->v_float64);
  } else if (key->type_index == kTVMFFINone) {
    snprintf(buf, n, "None");
  } else if (ffi_string_view(key, &s)) {
    snprintf(buf, n, "'%.*s'", (int)(s.size > 200 ? 200 : s.size), s.data);
  } else {
    TVMFFIByteArray tk = ffi_type_key_of(key->type_index);
    snprintf(buf, n, "<%.*s object>", (int)tk.size, tk.data);
  }
}

/* Looks key (a view) up; *pos = FFI_MAP_NO_POS when absent. */
static int lookup_view(TVMFFIObject* m, const TVMFFIAny* view, uint64_t* pos) {
  TVMFFIAny key;
  if (TVMFFIAnyViewToOwnedAny(view, &key) != 0) return -1;
  *pos = ffi_map_find_pos(m, &key);
  ffi_any_release(&key);
  return 0;
}

/* ---- global functions ---- */

#define MAP_GLOBAL(fn) \
  static int fn(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result)

static int construct(const char* fname, int32_t type_index, const TVMFFIAny* args,
                     int32_t num_args, TVMFFIAny* result) {
  if (num_args % 2 != 0) {
    return ffi_raise("ValueError", "%s: expects key/value pairs, got an odd number of arguments (%d)",
                     fname, (int)num_args);
  }
  TVMFFIObject* m;
  if (ffi_map_new_empty(type_index, &m) != 0) return -1;
  for (int32_t i = 0; i < num_args; i += 2) {
    if (ffi_map_set_views(m, &args[i], &args[i + 1]) != 0) {
      ffi_decref(m);
      return -1;
    }
  }
  ffi_ret_object(result, m);
  return 0;
}

MAP_GLOBAL(global_map) {
  (void)self;
  return construct("ffi.Map", kTVMFFIMap, args, num_args, result);
}
MAP_GLOBAL(global_dict) {
  (void)self;
  return construct("ffi.Dict", kTVMFFIDict, args, num_args, result);
}

static int do_size(const char* fname, bool dict, const TVMFFIAny* args, int32_t num_args,
                   TVMFFIAny* result) {
  TVMFFIObject* m;
  if (ffi_check_num_args(fname, num_args, 1) != 0 || mapping_arg(fname, args, 0, dict, &m) != 0) {
    return -1;
  }
  ffi_ret_int(result, ffi_map_size(m));
  return 0;
}

/* mode 0: GetItem (KeyError), 1: Count, 2: GetItemOrMissing. */
static int do_get(const char* fname, bool dict, int mode, const TVMFFIAny* args, int32_t num_args,
                  TVMFFIAny* result) {
  TVMFFIObject* m;
  uint64_t pos;
  if (ffi_check_num_args(fname, num_args, 2) != 0 || mapping_arg(fname, args, 0, dict, &m) != 0 ||
      lookup_view(m, &args[1], &pos) != 0) {
    return -1;
  }
  if (mode == 1) {
    ffi_ret_int(result, pos != FFI_MAP_NO_POS ? 1 : 0);
    return 0;
  }
  if (pos != FFI_MAP_NO_POS) return TVMFFIAnyViewToOwnedAny(ffi_map_value_at(m, pos), result);
  if (mode == 2) {
    TVMFFIByteArray name = {"ffi.GetInvalidObject", strlen("ffi.GetInvalidObject")};
    TVMFFIObjectHandle f = NULL;
    if (TVMFFIFunctionGetGlobal(&name, &f) != 0) return -1;
    if (f == NULL) return ffi_raise("RuntimeError", "%s: ffi.GetInvalidObject is not registered", fname);
    int rc = TVMFFIFunctionCall(f, NULL, 0, result);
    TVMFFIObjectDecRef(f);
    return rc;
  }
  char desc[256];
  describe_key(&args[1], desc, sizeof(desc));
  return ffi_raise("KeyError", "%s", desc);
}

MAP_GLOBAL(global_map_size) { (void)self; return do_size("ffi.MapSize", false, args, num_args, result); }
MAP_GLOBAL(global_dict_size) { (void)self; return do_size("ffi.DictSize", true, args, num_args, result); }
MAP_GLOBAL(global_map_get_item) { (void)self; return do_get("ffi.MapGetItem", false, 0, args, num_args, result); }
MAP_GLOBAL(global_dict_get_item) { (void)self; return do_get("ffi.DictGetItem", true, 0, args, num_args, result); }
MAP_GLOBAL(global_map_count) { (void)self; return do_get("ffi.MapCount", false, 1, args, num_args, result); }
MAP_GLOBAL(global_dict_count) { (void)self; return do_get("ffi.DictCount", true, 1, args, num_args, result); }
MAP_GLOBAL(global_map_get_missing) { (void)self; return do_get("ffi.MapGetItemOrMissing", false, 2, args, num_args, result); }
MAP_GLOBAL(global_dict_get_missing) { (void)self; return do_get("ffi.DictGetItemOrMissing", true, 2, args, num_args, result); }

/* ffi._MapSetItemInPlace(map, key, value) and ffi._MapEraseInPlace(map, key): change a Map its
 * caller holds the only reference to, as our C++ headers' Map::Set and Map::erase do after
 * copy-on-write (one insert or removal instead of rebuilding the map). Not reference functions:
 * a Map is immutable once shared, so a shared one is refused. */
static int held_once_map_arg(const char* fname, const TVMFFIAny* args, TVMFFIObject** out) {
  if (ffi_arg_object(fname, args, 0, kTVMFFIMap, out) != 0) return -1;
  if (ffi_strong_count(*out) != 1) {
    return ffi_raise("ValueError", "%s: the Map is shared (%u references); copy it first", fname,
                     (unsigned)ffi_strong_count(*out));
  }
  return 0;
}

/* The mapping a writer changes: a Dict, or (map_held_once) a Map held only by the caller. */
static int writable_arg(const char* fname, bool map_held_once, const TVMFFIAny* args,
                        TVMFFIObject** out) {
  return map_held_once ? held_once_map_arg(fname, args, out) : mapping_arg(fname, args, 0, true, out);
}

/* ffi.DictSetItem(dict, key, value) and ffi._MapSetItemInPlace(map, key, value). */
static int do_set(const char* fname, bool map_held_once, const TVMFFIAny* args, int32_t num_args,
                  TVMFFIAny* result) {
  TVMFFIObject* m;
  if (ffi_check_num_args(fname, num_args, 3) != 0 || writable_arg(fname, map_held_once, args, &m) != 0) {
    return -1;
  }
  ffi_incref(m); /* an overwritten value may hold the last other reference */
  int rc = ffi_map_set_views(m, &args[1], &args[2]);
  ffi_decref(m);
  if (rc != 0) return -1;
  *result = ffi_any_none();
  return 0;
}

/* ffi.DictErase(dict, key) and ffi._MapEraseInPlace(map, key): removes the key if present;
 * absent keys are ignored, like dict.pop(k, None). */
static int do_erase(const char* fname, bool map_held_once, const TVMFFIAny* args,
                    int32_t num_args, TVMFFIAny* result) {
  TVMFFIObject* m;
  uint64_t pos;
  if (ffi_check_num_args(fname, num_args, 2) != 0 || writable_arg(fname, map_held_once, args, &m) != 0 ||
      lookup_view(m, &args[1], &pos) != 0) {
    return -1;
  }
  if (pos != FFI_MAP_NO_POS) {
    ffi_incref(m); /* an erased value may hold the last other reference */
    ffi_map_erase_pos(m, pos);
    ffi_decref(m);
  }
  *result = ffi_any_none();
  return 0;
}

MAP_GLOBAL(global_dict_set_item) { (void)self; return do_set("ffi.DictSetItem", false, args, num_args, result); }
MAP_GLOBAL(global_map_set_item_in_place) { (void)self; return do_set("ffi._MapSetItemInPlace", true, args, num_args, result); }
MAP_GLOBAL(global_dict_erase) { (void)self; return do_erase("ffi.DictErase", false, args, num_args, result); }
MAP_GLOBAL(global_map_erase_in_place) { (void)self; return do_erase("ffi._MapEraseInPlace", true, args, num_args, result); }

MAP_GLOBAL(global_dict_clear) {
  (void)self;
  static const char* kName = "ffi.DictClear";
  TVMFFIObject* m;
  if (ffi_check_num_args(kName, num_args, 1) != 0 || mapping_arg(kName, args, 0, true, &m) != 0) {
    return -1;
  }
  ffi_incref(m);
  int rc = ffi_map_clear(m);
  ffi_decref(m);
  if (rc != 0) return -1;
  *result = ffi_any_none();
  return 0;
}

/* ---- forward iterator functor ---- */

typedef struct {
  TVMFFIObject* map; /* strong reference */
  uint64_t pos;
} MapIterState;

static void iter_state_free(void* self) {
  MapIterState* state = (MapIterState*)self;
  ffi_decref(state->map);
  free(state);
}

static int iter_call(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  static const char* kName = "ffi.MapForwardIterFunctor";
  MapIterState* state = (MapIterState*)self; /* the resource given to TVMFFIFunctionCreate */
  int64_t op;
  if (ffi_check_num_args(kName, num_args, 1) != 0 || ffi_arg_int(kName, args, 0, &op) != 0) return -1;
  if (op < 0 || op > 2) return ffi_raise("ValueError", "%s: op must be 0, 1 or 2, got %lld", kName, (long long)op);
  if (!ffi_map_pos_valid(state->map, state->pos)) {
    return ffi_raise("IndexError", "%s: iterator is past the end", kName);
  }
  if (op == 0) return TVMFFIAnyViewToOwnedAny(ffi_map_key_at(state->map, state->pos), result);
  if (op == 1) return TVMFFIAnyViewToOwnedAny(ffi_map_value_at(state->map, state->pos), result);
  state->pos = ffi_map_after_pos(state->map, state->pos);
  ffi_ret_bool(result, state->pos != FFI_MAP_NO_POS);
  return 0;
}

static int make_iter(const char* fname, bool dict, const TVMFFIAny* args, int32_t num_args,
                     TVMFFIAny* result) {
  TVMFFIObject* m;
  if (ffi_check_num_args(fname, num_args, 1) != 0 || mapping_arg(fname, args, 0, dict, &m) != 0) {
    return -1;
  }
  MapIterState* state = (MapIterState*)malloc(sizeof(MapIterState));
  if (state == NULL) return ffi_raise("MemoryError", "%s: out of memory", fname);
  ffi_incref(m);
  state->map = m;
  state->pos = ffi_map_first_pos(m);
  TVMFFIObjectHandle f = NULL;
  if (TVMFFIFunctionCreate(state, iter_call, iter_state_free, &f) != 0) {
    iter_state_free(state);
    return -1;
  }
  ffi_ret_object(result, (TVMFFIObject*)f);
  return 0;
}

MAP_GLOBAL(global_map_iter) { (void)self; return make_iter("ffi.MapForwardIterFunctor", false, args, num_args, result); }
MAP_GLOBAL(global_dict_iter) { (void)self; return make_iter("ffi.DictForwardIterFunctor", true, args, num_args, result); }

void ffi_register_map_globals(void) {
  ffi_register_builtin("ffi.Map", global_map);
  ffi_register_builtin("ffi.MapSize", global_map_size);
  ffi_register_builtin("ffi.MapGetItem", global_map_get_item);
  ffi_register_builtin("ffi.MapCount", global_map_count);
  ffi_register_builtin("ffi.MapGetItemOrMissing", global_map_get_missing);
  ffi_register_builtin("ffi.MapForwardIterFunctor", global_map_iter);
  ffi_register_builtin("ffi._MapSetItemInPlace", global_map_set_item_in_place);
  ffi_register_builtin("ffi._MapEraseInPlace", global_map_erase_in_place);
  ffi_register_builtin("ffi.Dict", global_dict);
  ffi_register_builtin("ffi.DictSize", global_dict_size);
  ffi_register_builtin("ffi.DictGetItem", global_dict_get_item);
  ffi_register_builtin("ffi.DictCount", global_dict_count);
  ffi_register_builtin("ffi.DictGetItemOrMissing", global_dict_get_missing);
  ffi_register_builtin("ffi.DictForwardIterFunctor", global_dict_iter);
  ffi_register_builtin("ffi.DictSetItem", global_dict_set_item);
  ffi_register_builtin("ffi.DictErase", global_dict_erase);
  ffi_register_builtin("ffi.DictClear", global_dict_clear);
}
