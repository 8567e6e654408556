/*
 * structural_types_lib.c -- reflected object types for the structural-service tests, registered
 * through the C API when the library is loaded (C tests dlopen it; Python tests load it with
 * ctypes). Every type is the same layout, up to three Any fields after the header, registered
 * under a different key with its own structural kind and field flags:
 *
 *   st.Var   (free var)   name [SEqHashIgnore]
 *   st.Int   (tree)       value (int64, inline)
 *   st.Node  (tree)       val, next
 *   st.Func  (tree)       params [DefPattern], body, comment [SEqHashIgnore]
 *   st.FuncS (tree)       params [DefSimple], body
 *   st.Bind  (DAG)        name [SEqHashIgnore], value
 *   st.Pair  (kind 0)     a, b
 *   st.Flags (tree)       shown, hidden [ReprOff]
 *   st.Hooked (tree)      v; __ffi_repr__ prints "<Hooked v>"
 *   st.NoCopy (tree)      v; no creator, no __ffi_shallow_copy__
 *   st.SEq   (tree)       key, name; __s_equal__/__s_hash__ hooks look at `key` only
 *
 * Global st.make(type_key, field values...) makes an instance (fields in order).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

typedef struct {
  TVMFFIObject header;
  TVMFFIAny f[3];
} StObject;

static int fail(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

static void st_deleter(void* self, int flags) {
  StObject* obj = (StObject*)self;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) {
    for (int i = 0; i < 3; ++i) {
      if (obj->f[i].type_index >= kTVMFFIStaticObjectBegin && obj->f[i].v_obj != NULL) {
        TVMFFIObjectDecRef(obj->f[i].v_obj);
      }
      memset(&obj->f[i], 0, sizeof(TVMFFIAny));
    }
  }
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) free(self);
}

static StObject* st_alloc(int32_t type_index) {
  StObject* obj = (StObject*)calloc(1, sizeof(StObject));
  if (obj == NULL) return NULL;
  obj->header.combined_ref_count = 1 | ((uint64_t)1 << 32);
  obj->header.type_index = type_index;
  obj->header.deleter = st_deleter;
  return obj;
}

static int get_any(void* addr, TVMFFIAny* out) { return TVMFFIAnyViewToOwnedAny((TVMFFIAny*)addr, out); }

static int set_any(void* addr, const TVMFFIAny* value) {
  TVMFFIAny owned;
  if (TVMFFIAnyViewToOwnedAny(value, &owned) != 0) return -1;
  TVMFFIAny* slot = (TVMFFIAny*)addr;
  if (slot->type_index >= kTVMFFIStaticObjectBegin && slot->v_obj != NULL) TVMFFIObjectDecRef(slot->v_obj);
  *slot = owned;
  return 0;
}

static int get_int(void* addr, TVMFFIAny* out) {
  memset(out, 0, sizeof(*out));
  out->type_index = kTVMFFIInt;
  out->v_int64 = ((TVMFFIAny*)addr)->v_int64;
  return 0;
}

static int set_int(void* addr, const TVMFFIAny* value) {
  if (value->type_index != kTVMFFIInt && value->type_index != kTVMFFIBool) {
    return fail("TypeError", "st.Int.value expects an int");
  }
  TVMFFIAny* slot = (TVMFFIAny*)addr;
  memset(slot, 0, sizeof(*slot));
  slot->type_index = kTVMFFIInt;
  slot->v_int64 = value->v_int64;
  return 0;
}

#define MAX_TYPES 16
static struct {
  const char* key;
  int32_t index;
} g_types[MAX_TYPES];
static int g_num_types = 0;

#define CREATOR(n)                                            \
  static int create_##n(TVMFFIObjectHandle* out) {            \
    StObject* obj = st_alloc(g_types[n].index);               \
    if (obj == NULL) return fail("MemoryError", "st alloc");  \
    *out = obj;                                               \
    return 0;                                                 \
  }
CREATOR(0) CREATOR(1) CREATOR(2) CREATOR(3) CREATOR(4) CREATOR(5) CREATOR(6) CREATOR(7) CREATOR(8)
CREATOR(9) CREATOR(10)
static TVMFFIObjectCreator kCreators[] = {create_0, create_1, create_2, create_3,
                                          create_4, create_5, create_6, create_7,
                                          create_8, create_9, create_10};

/* __ffi_shallow_copy__(obj) -> a new object with the same field values. */
static int shallow_copy(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  (void)h;
  if (n != 1 || args[0].type_index < kTVMFFIStaticObjectBegin) return fail("TypeError", "copy expects an object");
  const StObject* src = (const StObject*)args[0].v_obj;
  StObject* obj = st_alloc(src->header.type_index);
  if (obj == NULL) return fail("MemoryError", "st alloc");
  for (int i = 0; i < 3; ++i) TVMFFIAnyViewToOwnedAny(&src->f[i], &obj->f[i]);
  ret->type_index = obj->header.type_index;
  ret->v_obj = &obj->header;
  return 0;
}

static int hooked_repr(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  (void)h;
  if (n != 2) return fail("TypeError", "__ffi_repr__ expects (self, fn_repr)");
  const StObject* self = (const StObject*)args[0].v_obj;
  TVMFFIAny text;
  memset(&text, 0, sizeof(text));
  TVMFFIAny arg = self->f[0];
  if (TVMFFIFunctionCall(args[1].v_obj, &arg, 1, &text) != 0) return -1;
  const char* data = text.type_index == kTVMFFISmallStr ? text.v_bytes
                     : ((const TVMFFIByteArray*)((const char*)text.v_obj + sizeof(TVMFFIObject)))->data;
  size_t size = text.type_index == kTVMFFISmallStr ? text.small_str_len
                : ((const TVMFFIByteArray*)((const char*)text.v_obj + sizeof(TVMFFIObject)))->size;
  char buf[256];
  snprintf(buf, sizeof(buf), "<Hooked %.*s>", (int)size, data);
  if (text.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(text.v_obj);
  TVMFFIByteArray out = {buf, strlen(buf)};
  return TVMFFIStringFromByteArray(&out, ret);
}

/* __s_equal__(self, other, fn_eq): fn_eq(self.key, other.key, 0, "key"). */
static int seq_equal(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  (void)h;
  if (n != 3) return fail("TypeError", "__s_equal__ expects (self, other, fn_eq)");
  TVMFFIAny call_args[4];
  call_args[0] = ((const StObject*)args[0].v_obj)->f[0];
  call_args[1] = ((const StObject*)args[1].v_obj)->f[0];
  memset(&call_args[2], 0, sizeof(TVMFFIAny));
  call_args[2].type_index = kTVMFFIInt;
  call_args[3].type_index = kTVMFFIRawStr;
  call_args[3].zero_padding = 0;
  call_args[3].v_c_str = "key";
  return TVMFFIFunctionCall(args[2].v_obj, call_args, 4, ret);
}

/* __s_hash__(self, init_hash, fn_hash): fn_hash(self.key, init_hash, 0). */
static int seq_hash(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  (void)h;
  if (n != 3) return fail("TypeError", "__s_hash__ expects (self, init_hash, fn_hash)");
  TVMFFIAny call_args[3];
  call_args[0] = ((const StObject*)args[0].v_obj)->f[0];
  call_args[1] = args[1];
  memset(&call_args[2], 0, sizeof(TVMFFIAny));
  call_args[2].type_index = kTVMFFIInt;
  return TVMFFIFunctionCall(args[2].v_obj, call_args, 3, ret);
}

static void register_fn_attr(int32_t index, const char* attr, TVMFFISafeCallType fn) {
  TVMFFIObjectHandle f;
  TVMFFIFunctionCreate(NULL, fn, NULL, &f);
  TVMFFIAny v;
  memset(&v, 0, sizeof(v));
  v.type_index = kTVMFFIFunction;
  v.v_obj = (TVMFFIObject*)f;
  TVMFFIByteArray name = {attr, strlen(attr)};
  TVMFFITypeRegisterAttr(index, &name, &v);
  TVMFFIObjectDecRef(f);
}

typedef struct {
  const char* name;
  int64_t flags;
  int is_int;
} FieldSpec;

static void register_type(const char* key, int kind, const FieldSpec* fields, int num_fields,
                          int copyable) {
  TVMFFIByteArray k = {key, strlen(key)};
  int n = g_num_types++;
  int32_t index = TVMFFITypeGetOrAllocIndex(&k, -1, 1, 0, 1, kTVMFFIObject);
  g_types[n].key = key;
  g_types[n].index = index;
  for (int i = 0; i < num_fields; ++i) {
    TVMFFIFieldInfo info;
    memset(&info, 0, sizeof(info));
    info.name.data = fields[i].name;
    info.name.size = strlen(fields[i].name);
    info.flags = fields[i].flags | kTVMFFIFieldFlagBitMaskWritable;
    info.size = 16;
    info.alignment = 8;
    info.offset = (int64_t)(sizeof(TVMFFIObject) + (size_t)i * sizeof(TVMFFIAny));
    info.getter = fields[i].is_int ? get_int : get_any;
    info.setter = (void*)(fields[i].is_int ? set_int : set_any);
    info.field_static_type_index = fields[i].is_int ? kTVMFFIInt : kTVMFFIAny;
    TVMFFITypeRegisterField(index, &info);
  }
  TVMFFITypeMetadata md;
  memset(&md, 0, sizeof(md));
  md.creator = copyable ? kCreators[n] : NULL;
  md.total_size = (int32_t)sizeof(StObject);
  md.structural_eq_hash_kind = (TVMFFISEqHashKind)kind;
  TVMFFITypeRegisterMetadata(index, &md);
  if (copyable) register_fn_attr(index, "__ffi_shallow_copy__", shallow_copy);
}

/* st.make(type_key, values...) */
static int st_make(void* h, const TVMFFIAny* args, int32_t n, TVMFFIAny* ret) {
  (void)h;
  if (n < 1) return fail("TypeError", "st.make(type_key, values...)");
  int32_t index = -1;
  TVMFFIByteArray key;
  if (args[0].type_index == kTVMFFISmallStr) {
    key.data = args[0].v_bytes;
    key.size = args[0].small_str_len;
  } else if (args[0].type_index == kTVMFFIRawStr) {
    key.data = args[0].v_c_str;
    key.size = strlen(args[0].v_c_str);
  } else if (args[0].type_index == kTVMFFIStr) {
    key = *(const TVMFFIByteArray*)((const char*)args[0].v_obj + sizeof(TVMFFIObject));
  } else {
    return fail("TypeError", "st.make: type_key must be a str");
  }
  if (TVMFFITypeKeyToIndex(&key, &index) != 0) return -1;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(index);
  if (n - 1 > info->num_fields) return fail("TypeError", "st.make: too many values");
  StObject* obj = st_alloc(index);
  if (obj == NULL) return fail("MemoryError", "st alloc");
  for (int i = 0; i < info->num_fields; ++i) {
    TVMFFIAny none;
    memset(&none, 0, sizeof(none));
    const TVMFFIAny* v = i + 1 < n ? &args[i + 1] : &none;
    if (((TVMFFIFieldSetter)info->fields[i].setter)((char*)obj + info->fields[i].offset, v) != 0) {
      st_deleter(obj, kTVMFFIObjectDeleterFlagBitMaskBoth);
      return -1;
    }
  }
  ret->type_index = index;
  ret->v_obj = &obj->header;
  return 0;
}

__attribute__((constructor)) static void st_register(void) {
  const FieldSpec var[] = {{"name", kTVMFFIFieldFlagBitMaskSEqHashIgnore, 0}};
  const FieldSpec intv[] = {{"value", 0, 1}};
  const FieldSpec node[] = {{"val", 0, 0}, {"next", 0, 0}};
  const FieldSpec func[] = {{"params", kTVMFFIFieldFlagBitMaskSEqHashDefPattern, 0},
                            {"body", 0, 0},
                            {"comment", kTVMFFIFieldFlagBitMaskSEqHashIgnore, 0}};
  const FieldSpec funcs[] = {{"params", kTVMFFIFieldFlagBitMaskSEqHashDefSimple, 0}, {"body", 0, 0}};
  const FieldSpec bind[] = {{"name", kTVMFFIFieldFlagBitMaskSEqHashIgnore, 0}, {"value", 0, 0}};
  const FieldSpec pair[] = {{"a", 0, 0}, {"b", 0, 0}};
  const FieldSpec flags[] = {{"shown", 0, 0}, {"hidden", kTVMFFIFieldFlagBitMaskReprOff, 0}};
  const FieldSpec one[] = {{"v", 0, 0}};
  register_type("st.Var", kTVMFFISEqHashKindFreeVar, var, 1, 1);
  register_type("st.Int", kTVMFFISEqHashKindTreeNode, intv, 1, 1);
  register_type("st.Node", kTVMFFISEqHashKindTreeNode, node, 2, 1);
  register_type("st.Func", kTVMFFISEqHashKindTreeNode, func, 3, 1);
  register_type("st.FuncS", kTVMFFISEqHashKindTreeNode, funcs, 2, 1);
  register_type("st.Bind", kTVMFFISEqHashKindDAGNode, bind, 2, 1);
  register_type("st.Pair", kTVMFFISEqHashKindUnsupported, pair, 2, 1);
  register_type("st.Flags", kTVMFFISEqHashKindTreeNode, flags, 2, 1);
  register_type("st.Hooked", kTVMFFISEqHashKindTreeNode, one, 1, 1);
  register_type("st.NoCopy", kTVMFFISEqHashKindTreeNode, one, 1, 0);
  register_type("st.SEq", kTVMFFISEqHashKindTreeNode, pair, 2, 1);
  register_fn_attr(g_types[8].index, "__ffi_repr__", hooked_repr);
  register_fn_attr(g_types[10].index, "__s_equal__", seq_equal);
  register_fn_attr(g_types[10].index, "__s_hash__", seq_hash);
  TVMFFIObjectHandle f;
  TVMFFIFunctionCreate(NULL, st_make, NULL, &f);
  TVMFFIByteArray name = {"st.make", 7};
  TVMFFIFunctionSetGlobal(&name, f, 1);
  TVMFFIObjectDecRef(f);
}
