/*
 * test_py_class.c -- the runtime side of Python-defined types (src/runtime/py_class.c), driven
 * from C the way tvm_ffi.dataclasses drives it: field getters/setters by storage kind, the
 * generated __ffi_new__ / __ffi_init__ / __ffi_shallow_copy__, and the deleter releasing the Any
 * and object fields of the whole ancestor chain (no leaks under ASan).
 */
#include "check.h"

static int32_t g_base, g_child;

/* A type attribute of `type_index` (borrowed). */
static void* attr_of(int32_t type_index, const char* name) {
  TVMFFIByteArray key = check_ba(name);
  const TVMFFITypeAttrColumn* column = TVMFFIGetTypeAttrColumn(&key);
  if (column == NULL || type_index < column->begin_index ||
      type_index >= column->begin_index + column->size) {
    return NULL;
  }
  return column->data[type_index - column->begin_index].v_obj;
}

static void add_field(int32_t type_index, const char* name, int64_t offset, int64_t size,
                      int64_t fsti) {
  TVMFFIAny arg = any_int(fsti), getter, setter;
  CHECK_EQ_INT(call_global("ffi.MakeFieldGetter", &arg, 1, &getter), 0);
  CHECK_EQ_INT(call_global("ffi.MakeFieldSetter", &arg, 1, &setter), 0);
  TVMFFIFieldInfo info;
  memset(&info, 0, sizeof(info));
  info.name = check_ba(name);
  info.flags = kTVMFFIFieldFlagBitMaskWritable | kTVMFFIFieldFlagBitSetterIsFunctionObj;
  info.size = size;
  info.alignment = size >= 8 ? 8 : size;
  info.offset = offset;
  info.getter = (TVMFFIFieldGetter)(intptr_t)getter.v_int64;
  info.setter = setter.v_obj;
  info.field_static_type_index = (int32_t)fsti;
  CHECK_EQ_INT(TVMFFITypeRegisterField(type_index, &info), 0);
  release(&setter); /* the registry retains it */
}

static void define_types(void) {
  TVMFFIByteArray base_key = check_ba("c.pyclass.Base"), child_key = check_ba("c.pyclass.Child");
  g_base = TVMFFITypeGetOrAllocIndex(&base_key, -1, 1, 0, 1, kTVMFFIObject);
  add_field(g_base, "x", 24, 8, 1);     /* int */
  add_field(g_base, "name", 32, 16, -1); /* Any */
  TVMFFIAny cols[2] = {any_int(g_base), any_int(48)}, r;
  CHECK_EQ_INT(call_global("ffi._PyClassRegisterTypeAttrColumns", cols, 2, &r), 0);
  g_child = TVMFFITypeGetOrAllocIndex(&child_key, -1, 2, 0, 1, g_base);
  add_field(g_child, "flag", 48, 1, 2);  /* bool */
  add_field(g_child, "next", 56, 8, 64); /* object */
  cols[0] = any_int(g_child);
  cols[1] = any_int(64);
  CHECK_EQ_INT(call_global("ffi._PyClassRegisterTypeAttrColumns", cols, 2, &r), 0);
}

static void test_init_copy_and_release(void) {
  int64_t live = live_objects();
  void* init = attr_of(g_child, "__ffi_init__");
  CHECK(init != NULL);
  TVMFFIAny inner_args[4] = {any_int(1), any_str("a name longer than small"), any_bool(0), {0}};
  TVMFFIAny inner, outer;
  CHECK_EQ_INT(TVMFFIFunctionCall(init, inner_args, 4, &inner), 0);
  TVMFFIAny outer_args[4] = {any_int(2), any_str("outer"), any_bool(1), inner};
  CHECK_EQ_INT(TVMFFIFunctionCall(init, outer_args, 4, &outer), 0);
  char* body = (char*)outer.v_obj;
  CHECK_EQ_INT(*(int64_t*)(body + 24), 2);
  CHECK_EQ_INT(*(uint8_t*)(body + 48), 1);
  CHECK(*(void**)(body + 56) == inner.v_obj);
  CHECK_EQ_INT(check_strong_count(inner.v_obj), 2);

  void* copy_fn = attr_of(g_child, "__ffi_shallow_copy__");
  TVMFFIAny copy;
  CHECK_EQ_INT(TVMFFIFunctionCall(copy_fn, &outer, 1, &copy), 0);
  CHECK(copy.v_obj != outer.v_obj);
  CHECK_EQ_INT(check_strong_count(inner.v_obj), 3); /* shared by the copy */
  CHECK_EQ_INT(*(int64_t*)((char*)copy.v_obj + 24), 2);
  release(&copy);
  release(&outer);
  CHECK_EQ_INT(check_strong_count(inner.v_obj), 1);
  release(&inner);
  CHECK_EQ_INT(live_objects(), live);
}

static void test_setter_kinds_and_errors(void) {
  void* make_new = attr_of(g_child, "__ffi_new__");
  TVMFFIAny obj;
  CHECK_EQ_INT(TVMFFIFunctionCall(make_new, NULL, 0, &obj), 0);
  const TVMFFITypeInfo* base = TVMFFIGetTypeInfo(g_base);
  const TVMFFIFieldInfo* x = &base->fields[0];
  TVMFFIAny args[2] = {{0}, any_str("text")}, r;
  args[0].type_index = kTVMFFIOpaquePtr;
  args[0].v_ptr = (char*)obj.v_obj + x->offset;
  CHECK(TVMFFIFunctionCall(x->setter, args, 2, &r) == -1);
  CHECK_RAISED("TypeError", "expected int");
  args[1] = any_bool(1);
  CHECK_EQ_INT(TVMFFIFunctionCall(x->setter, args, 2, &r), 0);
  TVMFFIAny got;
  CHECK_EQ_INT(x->getter((char*)obj.v_obj + x->offset, &got), 0);
  CHECK_EQ_INT(got.type_index, kTVMFFIInt);
  CHECK_EQ_INT(got.v_int64, 1);
  TVMFFIAny bad = any_int(7);
  CHECK(call_global("ffi.MakeFieldGetter", &bad, 1, &got) == -1);
  CHECK_RAISED("ValueError", "Unsupported field type index for getter: 7");
  TVMFFIAny cols[2] = {any_int(100000), any_int(48)};
  CHECK(call_global("ffi._PyClassRegisterTypeAttrColumns", cols, 2, &got) == -1);
  CHECK_RAISED("ValueError", "is not a registered object type index");
  release(&obj);
}

int main(void) {
  define_types();
  RUN(test_init_copy_and_release);
  RUN(test_setter_kinds_and_errors);
  return CHECK_MAIN_RESULT();
}
