/* Reflection-driven construction: ffi.MakeObjectFromPackedArgs and the auto-generated
 * __ffi_init__ of ffi._RegisterFFIInit, over a type registered the way a C library does
 * (fields with plain and FunctionObj setters, defaults, init/kw_only flags, a creator). */
#include <stdint.h>

#include "check.h"

/* struct Point { header; int64 x @24 (rw, required); int64 y @32 (rw, default 5, kw_only);
 *                Any tag @40 (ro, init=False, default "t") } */
typedef struct {
  TVMFFIObject header;
  int64_t x;
  int64_t y;
  TVMFFIAny tag;
} Point;

static int32_t g_point_index = -1;
static int g_live_points = 0;

static void point_deleter(void* self, int flags) {
  Point* p = (Point*)self;
  if (flags & kTVMFFIObjectDeleterFlagBitMaskStrong) release(&p->tag);
  if (flags & kTVMFFIObjectDeleterFlagBitMaskWeak) {
    free(p);
    --g_live_points;
  }
}

static int point_creator(TVMFFIObjectHandle* out) {
  Point* p = (Point*)calloc(1, sizeof(Point));
  if (p == NULL) return -1;
  p->header.combined_ref_count = ((uint64_t)1 << 32) | 1;
  p->header.type_index = g_point_index;
  p->header.deleter = point_deleter;
  ++g_live_points;
  *out = p;
  return 0;
}

static int get_i64(void* addr, TVMFFIAny* r) {
  *r = any_int(*(int64_t*)addr);
  return 0;
}
static int set_i64(void* addr, const TVMFFIAny* v) {
  if (v->type_index != kTVMFFIInt) {
    TVMFFIErrorSetRaisedFromCStr("TypeError", "expected int");
    return -1;
  }
  *(int64_t*)addr = v->v_int64;
  return 0;
}
static int get_any(void* addr, TVMFFIAny* r) {
  return TVMFFIAnyViewToOwnedAny((const TVMFFIAny*)addr, r);
}
/* FunctionObj setter: (OpaquePtr field_addr, value). */
static int set_any_call(void* self, const TVMFFIAny* args, int32_t n, TVMFFIAny* result) {
  (void)self;
  (void)result;
  if (n != 2 || args[0].type_index != kTVMFFIOpaquePtr) return -1;
  TVMFFIAny owned = {0};
  if (TVMFFIAnyViewToOwnedAny(&args[1], &owned) != 0) return -1;
  release((TVMFFIAny*)args[0].v_ptr);
  *(TVMFFIAny*)args[0].v_ptr = owned;
  return 0;
}

static void register_field(const char* name, int64_t offset, int64_t flags, TVMFFIFieldGetter get,
                           void* setter, TVMFFIAny dflt) {
  TVMFFIFieldInfo info;
  memset(&info, 0, sizeof(info));
  info.name = check_ba(name);
  info.flags = flags;
  info.size = 8;
  info.alignment = 8;
  info.offset = offset;
  info.getter = get;
  info.setter = setter;
  info.default_value_or_factory = dflt;
  info.field_static_type_index = kTVMFFIInt;
  CHECK_EQ_INT(TVMFFITypeRegisterField(g_point_index, &info), 0);
}

static void register_point(void) {
  TVMFFIByteArray key = check_ba("testing.c.ReflectPoint");
  g_point_index = TVMFFITypeGetOrAllocIndex(&key, -1, 1, 0, 1, kTVMFFIObject);
  TVMFFIAny none = {0};
  register_field("x", 24, kTVMFFIFieldFlagBitMaskWritable, get_i64, (void*)set_i64, none);
  register_field("y", 32,
                 kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitMaskHasDefault |
                     kTVMFFIFieldFlagBitMaskKwOnly,
                 get_i64, (void*)set_i64, any_int(5));
  void* setter = NULL;
  CHECK_EQ_INT(TVMFFIFunctionCreate(NULL, set_any_call, NULL, &setter), 0);
  TVMFFIAny tag_default = {0};
  TVMFFIAny tag_view = any_str("t");
  CHECK_EQ_INT(TVMFFIAnyViewToOwnedAny(&tag_view, &tag_default), 0);
  register_field("tag", 40,
                 kTVMFFIFieldFlagBitMaskHasDefault | kTVMFFIFieldFlagBitMaskInitOff |
                     kTVMFFIFieldFlagBitSetterIsFunctionObj,
                 get_any, setter, tag_default);
  TVMFFIObjectDecRef(setter); /* the registry keeps its own reference */
  TVMFFITypeMetadata meta;
  memset(&meta, 0, sizeof(meta));
  meta.creator = point_creator;
  meta.total_size = (int32_t)sizeof(Point);
  CHECK_EQ_INT(TVMFFITypeRegisterMetadata(g_point_index, &meta), 0);
}

static Point* as_point(TVMFFIAny* v) {
  CHECK_EQ_INT(v->type_index, g_point_index);
  return (Point*)v->v_obj;
}

static void test_make_object_from_packed_args(void) {
  TVMFFIAny args[5] = {any_str("testing.c.ReflectPoint"), any_str("x"), any_int(3), any_str("tag"),
                       any_str("a longer tag than a small string")};
  TVMFFIAny r;
  CHECK_EQ_INT(call_global("ffi.MakeObjectFromPackedArgs", args, 5, &r), 0);
  Point* p = as_point(&r);
  CHECK_EQ_INT(p->x, 3);
  CHECK_EQ_INT(p->y, 5); /* default */
  CHECK_EQ_INT(p->tag.type_index, kTVMFFIStr);
  release(&r);

  CHECK(call_global("ffi.MakeObjectFromPackedArgs", args, 1, &r) == -1);
  CHECK_RAISED("TypeError", "Required field `x` not set in type `testing.c.ReflectPoint`");
  TVMFFIAny bogus[3] = {any_str("testing.c.ReflectPoint"), any_str("bogus"), any_int(1)};
  CHECK(call_global("ffi.MakeObjectFromPackedArgs", bogus, 3, &r) == -1);
  CHECK_RAISED("TypeError", "does not have field `bogus`");
  TVMFFIAny bad[3] = {any_str("testing.c.ReflectPoint"), any_str("x"), any_float(1.5)};
  CHECK(call_global("ffi.MakeObjectFromPackedArgs", bad, 3, &r) == -1);
  CHECK_RAISED("TypeError", "expected int");
  TVMFFIAny unknown[1] = {any_str("testing.c.NoSuchType")};
  CHECK(call_global("ffi.MakeObjectFromPackedArgs", unknown, 1, &r) == -1);
  CHECK_RAISED("RuntimeError", "Cannot find type `testing.c.NoSuchType`");
  TVMFFIAny no_creator[1] = {any_str("ffi.Object")};
  CHECK(call_global("ffi.MakeObjectFromPackedArgs", no_creator, 1, &r) == -1);
  CHECK_RAISED("RuntimeError", "does not support reflection creation");
  CHECK_EQ_INT(g_live_points, 0);
}

/* The generated init, looked up as the type's __ffi_init__ attribute. */
static void* ffi_init_of_point(void) {
  TVMFFIByteArray name = check_ba("__ffi_init__");
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&name);
  CHECK(column != NULL);
  if (column == NULL) return NULL;
  int32_t i = g_point_index - column->begin_index;
  CHECK(i >= 0 && i < column->size && column->data[i].type_index == kTVMFFIFunction);
  return column->data[i].v_obj;
}

static void test_registered_ffi_init(void) {
  TVMFFIAny index = any_int(g_point_index), r;
  CHECK_EQ_INT(call_global("ffi._RegisterFFIInit", &index, 1, &r), 0);
  void* init = ffi_init_of_point();
  if (init == NULL) return;
  TVMFFIAny kwargs;
  CHECK_EQ_INT(call_global("ffi.GetKwargsObject", NULL, 0, &kwargs), 0);

  TVMFFIAny positional[1] = {any_int(7)};
  memset(&r, 0, sizeof(r));
  CHECK_EQ_INT(TVMFFIFunctionCall(init, positional, 1, &r), 0);
  Point* p = as_point(&r);
  CHECK_EQ_INT(p->x, 7);
  CHECK_EQ_INT(p->y, 5);
  CHECK_EQ_INT(p->tag.type_index, kTVMFFISmallStr); /* init=False field with its default */
  release(&r);

  TVMFFIAny with_kw[4] = {any_int(1), kwargs, any_str("y"), any_int(9)};
  CHECK_EQ_INT(TVMFFIFunctionCall(init, with_kw, 4, &r), 0);
  CHECK_EQ_INT(as_point(&r)->y, 9);
  release(&r);

  TVMFFIAny too_many[2] = {any_int(1), any_int(2)}; /* y is kw_only: one positional slot */
  CHECK(TVMFFIFunctionCall(init, too_many, 2, &r) == -1);
  CHECK_RAISED("TypeError", "takes at most 1 positional argument(s), but 2 were given");
  TVMFFIAny init_off[4] = {any_int(1), kwargs, any_str("tag"), any_str("x")};
  CHECK(TVMFFIFunctionCall(init, init_off, 4, &r) == -1);
  CHECK_RAISED("TypeError", "got an unexpected keyword argument 'tag'");
  TVMFFIAny twice[4] = {any_int(1), kwargs, any_str("x"), any_int(2)};
  CHECK(TVMFFIFunctionCall(init, twice, 4, &r) == -1);
  CHECK_RAISED("TypeError", "got multiple values for argument 'x'");
  TVMFFIAny odd[3] = {any_int(1), kwargs, any_str("y")};
  CHECK(TVMFFIFunctionCall(init, odd, 3, &r) == -1);
  CHECK_RAISED("TypeError", "KWARGS requires an even number of key-value arguments");
  CHECK(TVMFFIFunctionCall(init, NULL, 0, &r) == -1);
  CHECK_RAISED("TypeError", "testing.c.ReflectPoint.__ffi_init__() missing required argument: 'x'");
  TVMFFIAny wrong[1] = {any_float(0.5)};
  CHECK(TVMFFIFunctionCall(init, wrong, 1, &r) == -1);
  CHECK_RAISED("TypeError", "__ffi_init__() field 'x':\n  expected int");
  release(&kwargs);
  CHECK_EQ_INT(g_live_points, 0);

  TVMFFIAny not_a_type = any_int(3);
  CHECK(call_global("ffi._RegisterFFIInit", &not_a_type, 1, &r) == -1);
  CHECK_RAISED("ValueError", "not a registered object type index");
}

int main(void) {
  register_point();
  RUN(test_make_object_from_packed_args);
  RUN(test_registered_ffi_init);
  return CHECK_MAIN_RESULT();
}
