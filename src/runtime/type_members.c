/*
 * type_members.c -- what is registered on a type: reflected fields and methods, type metadata
 * and type attribute columns (TVMFFITypeRegisterField/Method/Metadata/Attr,
 * TVMFFIGetTypeAttrColumn). The entries themselves and their lock are type_registry.c's.
 *
 * Arrays that readers reach without the lock (fields, methods, column data) grow through
 * ffi_type_array_reserve, which never frees an outgrown block; new elements are written before
 * the count that exposes them is published with a release store.
 */
#include <stdio.h>
#include <stdlib.h>

#include "internal.h"
#include "type_members_internal.h"
#include "type_registry_entry.h"

typedef struct {
  TVMFFITypeAttrColumn column; /* first: its address is what TVMFFIGetTypeAttrColumn returns */
  int32_t capacity;
  char* name;
} AttrColumn;

/* Attribute name -> AttrColumn* (key owned by the column), under the registry lock. */
static FfiStrMap g_columns = {NULL, 0, 0, 0};
/* Columns created so far; bumped (release) after each insertion into g_columns. */
static uint64_t g_column_count = 0;

uint64_t ffi_type_attr_column_count(void) {
  return __atomic_load_n(&g_column_count, __ATOMIC_ACQUIRE);
}

/* ------------------------------------------------------------------------------------------
 * Fields and methods
 * ------------------------------------------------------------------------------------------ */

static const TypeEntry* ancestor_with_field(const TypeEntry* entry, TVMFFIByteArray name) {
  for (int32_t d = 0; d < entry->info.type_depth; ++d) {
    const TVMFFITypeInfo* anc = entry->info.type_ancestors[d];
    for (int32_t i = 0; i < anc->num_fields; ++i) {
      if (anc->fields[i].name.size == name.size &&
          memcmp(anc->fields[i].name.data, name.data, name.size) == 0) {
        return (const TypeEntry*)anc;
      }
    }
  }
  return NULL;
}

static bool has_own_field(const TypeEntry* entry, TVMFFIByteArray name) {
  for (int32_t i = 0; i < entry->info.num_fields; ++i) {
    const TVMFFIFieldInfo* f = &entry->info.fields[i];
    if (f->name.size == name.size && memcmp(f->name.data, name.data, name.size) == 0) return true;
  }
  return false;
}

/* Owned copies of a field's strings and values; on failure nothing is kept. */
static int field_copy(const TVMFFIFieldInfo* in, TVMFFIFieldInfo* out) {
  *out = *in;
  out->name.size = out->doc.size = out->metadata.size = 0;
  out->default_value_or_factory = ffi_any_none();
  if (ffi_type_copy_bytes("field name", in->name, &out->name) != 0 ||
      ffi_type_copy_bytes("field doc", in->doc, &out->doc) != 0 ||
      ffi_type_copy_bytes("field metadata", in->metadata, &out->metadata) != 0 ||
      TVMFFIAnyViewToOwnedAny(&in->default_value_or_factory, &out->default_value_or_factory) != 0) {
    ffi_type_free_bytes(&out->name);
    ffi_type_free_bytes(&out->doc);
    ffi_type_free_bytes(&out->metadata);
    return -1;
  }
  /* A FunctionObj setter is called later through the stored pointer: keep it alive. */
  if ((in->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) && in->setter != NULL) {
    ffi_incref((TVMFFIObject*)in->setter);
  }
  return 0;
}

static void field_release(TVMFFIFieldInfo* f) {
  ffi_type_free_bytes(&f->name);
  ffi_type_free_bytes(&f->doc);
  ffi_type_free_bytes(&f->metadata);
  ffi_any_release(&f->default_value_or_factory);
  if ((f->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj) && f->setter != NULL) {
    ffi_decref((TVMFFIObject*)f->setter);
  }
}

/* Appends a copied field. Caller holds the write lock. */
static int add_field(TypeEntry* entry, const TVMFFIFieldInfo* info) {
  if (has_own_field(entry, info->name)) {
    return ffi_raise("InternalError", "TVMFFITypeRegisterField: Duplicate field name \"%.*s\" in "
                     "type \"%.*s\"", (int)info->name.size, info->name.data, KEY_ARGS(entry));
  }
  const TypeEntry* shadowed = ancestor_with_field(entry, info->name);
  if (shadowed != NULL) {
    fprintf(stderr, "[WARNING] Field \"%.*s\" of type \"%.*s\" repeats a field of its ancestor "
            "\"%.*s\"; fields are inherited and need not be registered again.\n",
            (int)info->name.size, info->name.data, KEY_ARGS(entry), KEY_ARGS(shadowed));
  }
  TVMFFIFieldInfo copy;
  if (field_copy(info, &copy) != 0) return -1;
  int32_t count = entry->info.num_fields;
  TVMFFIFieldInfo* fields = (TVMFFIFieldInfo*)ffi_type_array_reserve(
      entry->info.fields, count, &entry->fields_capacity, (int64_t)count + 1, sizeof(copy));
  if (fields == NULL) {
    field_release(&copy);
    return ffi_raise("MemoryError", "TVMFFITypeRegisterField: cannot grow the field list");
  }
  fields[count] = copy;
  /* Array first, then the count that exposes the new element. */
  __atomic_store_n(&entry->info.fields, fields, __ATOMIC_RELEASE);
  __atomic_store_n(&entry->info.num_fields, count + 1, __ATOMIC_RELEASE);
  return 0;
}

int TVMFFITypeRegisterField(int32_t type_index, const TVMFFIFieldInfo* info) {
  static const char* api = "TVMFFITypeRegisterField";
  if (info == NULL) return ffi_raise("ValueError", "%s: info is NULL", api);
  if (ffi_type_check_byte_array(api, "info->name", &info->name) != 0) return -1;
  ffi_type_registry_lock(true);
  TypeEntry* entry = ffi_type_entry_or_raise(api, type_index);
  int rc = entry != NULL ? add_field(entry, info) : -1;
  ffi_type_registry_unlock();
  return rc;
}

static int method_copy(const TVMFFIMethodInfo* in, TVMFFIMethodInfo* out) {
  *out = *in;
  out->name.size = out->doc.size = out->metadata.size = 0;
  out->method = ffi_any_none();
  if (ffi_type_copy_bytes("method name", in->name, &out->name) != 0 ||
      ffi_type_copy_bytes("method doc", in->doc, &out->doc) != 0 ||
      ffi_type_copy_bytes("method metadata", in->metadata, &out->metadata) != 0 ||
      TVMFFIAnyViewToOwnedAny(&in->method, &out->method) != 0) {
    ffi_type_free_bytes(&out->name);
    ffi_type_free_bytes(&out->doc);
    ffi_type_free_bytes(&out->metadata);
    return -1;
  }
  return 0;
}

int TVMFFITypeRegisterMethod(int32_t type_index, const TVMFFIMethodInfo* info) {
  static const char* api = "TVMFFITypeRegisterMethod";
  if (info == NULL) return ffi_raise("ValueError", "%s: info is NULL", api);
  ffi_type_registry_lock(true);
  int rc = -1;
  TVMFFIMethodInfo copy;
  TypeEntry* entry = ffi_type_entry_or_raise(api, type_index);
  if (entry != NULL && method_copy(info, &copy) == 0) {
    int32_t count = entry->info.num_methods;
    TVMFFIMethodInfo* methods = (TVMFFIMethodInfo*)ffi_type_array_reserve(
        entry->info.methods, count, &entry->methods_capacity, (int64_t)count + 1, sizeof(copy));
    if (methods == NULL) {
      ffi_type_free_bytes(&copy.name);
      ffi_type_free_bytes(&copy.doc);
      ffi_type_free_bytes(&copy.metadata);
      ffi_any_release(&copy.method);
      ffi_raise("MemoryError", "%s: cannot grow the method list", api);
    } else {
      methods[count] = copy;
      __atomic_store_n(&entry->info.methods, methods, __ATOMIC_RELEASE);
      __atomic_store_n(&entry->info.num_methods, count + 1, __ATOMIC_RELEASE);
      rc = 0;
    }
  }
  ffi_type_registry_unlock();
  return rc;
}

/* ------------------------------------------------------------------------------------------
 * Metadata
 * ------------------------------------------------------------------------------------------ */

/* Caller holds the write lock. */
static int set_metadata(const char* api, TypeEntry* entry, const TVMFFITypeMetadata* metadata) {
  if (entry->info.metadata != NULL) {
    return ffi_raise("RuntimeError", "%s: Overriding the metadata of type `%.*s`: it is already "
                     "registered (the type was defined twice, or another type uses the same key)",
                     api, KEY_ARGS(entry));
  }
  TVMFFITypeMetadata copy = *metadata;
  if (ffi_type_copy_bytes("metadata doc", metadata->doc, &copy.doc) != 0) return -1;
  entry->metadata = copy;
  __atomic_store_n(&entry->info.metadata, &entry->metadata, __ATOMIC_RELEASE);
  return 0;
}

int TVMFFITypeRegisterMetadata(int32_t type_index, const TVMFFITypeMetadata* metadata) {
  static const char* api = "TVMFFITypeRegisterMetadata";
  if (metadata == NULL) return ffi_raise("ValueError", "%s: metadata is NULL", api);
  ffi_type_registry_lock(true);
  TypeEntry* entry = ffi_type_entry_or_raise(api, type_index);
  int rc = entry != NULL ? set_metadata(api, entry, metadata) : -1;
  ffi_type_registry_unlock();
  return rc;
}

/* ------------------------------------------------------------------------------------------
 * Type attribute columns
 * ------------------------------------------------------------------------------------------ */

/* Finds or creates the column. Caller holds the write lock. NULL after raising. */
static AttrColumn* column_get_or_create(const TVMFFIByteArray* name) {
  AttrColumn* column = (AttrColumn*)ffi_str_map_get(&g_columns, name->data, name->size);
  if (column != NULL) return column;
  column = (AttrColumn*)calloc(1, sizeof(AttrColumn));
  char* key = (char*)malloc(name->size + 1);
  if (key != NULL) {
    if (name->size != 0) memcpy(key, name->data, name->size);
    key[name->size] = '\0';
  }
  if (column == NULL || key == NULL ||
      ffi_str_map_put(&g_columns, key, name->size, column) == NULL) {
    free(column);
    free(key);
    ffi_raise("MemoryError", "TVMFFITypeRegisterAttr: cannot create column `%.*s`",
              (int)name->size, name->data);
    return NULL;
  }
  column->name = key;
  column->column.begin_index = 0;
  __atomic_add_fetch(&g_column_count, 1, __ATOMIC_RELEASE);
  return column;
}

/* Stores an owned value at data[type_index]. Caller holds the write lock. */
static int column_set(AttrColumn* column, int32_t type_index, const TVMFFIAny* value) {
  TVMFFITypeAttrColumn* pub = &column->column;
  if (type_index < pub->size && pub->data[type_index].type_index != kTVMFFINone) {
    return ffi_raise("RuntimeError", "TVMFFITypeRegisterAttr: TypeAttr `%s` is already "
                     "registered for type index %d; values cannot be replaced (register a "
                     "mutable container once and update it instead)", column->name,
                     (int)type_index);
  }
  TVMFFIAny owned;
  if (TVMFFIAnyViewToOwnedAny(value, &owned) != 0) return -1;
  TVMFFIAny* data = (TVMFFIAny*)ffi_type_array_reserve(pub->data, pub->size, &column->capacity,
                                              (int64_t)type_index + 1, sizeof(TVMFFIAny));
  if (data == NULL) {
    ffi_any_release(&owned);
    return ffi_raise("MemoryError", "TVMFFITypeRegisterAttr: cannot grow column `%s`",
                     column->name);
  }
  /* Payload before type_index, so a reader that sees the index sees the value. */
  data[type_index].zero_padding = owned.zero_padding;
  data[type_index].v_uint64 = owned.v_uint64;
  __atomic_store_n(&data[type_index].type_index, owned.type_index, __ATOMIC_RELEASE);
  __atomic_store_n(&pub->data, data, __ATOMIC_RELEASE);
  if (type_index >= pub->size) __atomic_store_n(&pub->size, type_index + 1, __ATOMIC_RELEASE);
  return 0;
}

int TVMFFITypeRegisterAttr(int32_t type_index, const TVMFFIByteArray* attr_name,
                           const TVMFFIAny* attr_value) {
  static const char* api = "TVMFFITypeRegisterAttr";
  if (ffi_type_check_byte_array(api, "attr_name", attr_name) != 0) return -1;
  if (attr_value == NULL) return ffi_raise("ValueError", "%s: attr_value is NULL", api);
  ffi_type_registry_lock(true);
  int rc = -1;
  if (type_index == kTVMFFINone || ffi_type_entry_or_raise(api, type_index) != NULL) {
    AttrColumn* column = column_get_or_create(attr_name);
    /* Index 0 only declares the column. */
    if (column != NULL) {
      rc = type_index == kTVMFFINone ? 0 : column_set(column, type_index, attr_value);
    }
  }
  ffi_type_registry_unlock();
  return rc;
}

const TVMFFITypeAttrColumn* TVMFFIGetTypeAttrColumn(const TVMFFIByteArray* attr_name) {
  if (attr_name == NULL || (attr_name->data == NULL && attr_name->size != 0)) {
    ffi_fatal("TVMFFIGetTypeAttrColumn", "attr_name is NULL");
  }
  ffi_type_registry_lock(false);
  AttrColumn* column =
      (AttrColumn*)ffi_str_map_get(&g_columns, attr_name->data, attr_name->size);
  ffi_type_registry_unlock();
  return column != NULL ? &column->column : NULL;
}

/* ------------------------------------------------------------------------------------------
 * Start-up
 * ------------------------------------------------------------------------------------------ */

void ffi_type_members_init(void) {
  /* ffi.Object's metadata: the bare header. */
  TVMFFITypeMetadata object_meta = {{"", 0}, NULL, (int32_t)sizeof(TVMFFIObject),
                                    kTVMFFISEqHashKindUnsupported};
  TVMFFIByteArray any_hash = {"__any_hash__", 12};
  TVMFFIByteArray any_equal = {"__any_equal__", 13};
  ffi_type_registry_lock(true);
  bool ok = set_metadata("runtime start-up", ffi_type_entry_at(kTVMFFIObject), &object_meta) == 0 &&
            column_get_or_create(&any_hash) != NULL && column_get_or_create(&any_equal) != NULL;
  ffi_type_registry_unlock();
  if (!ok) ffi_fatal("runtime start-up", "cannot initialise the type table");
}
