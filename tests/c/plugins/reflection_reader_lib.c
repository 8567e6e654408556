/*
 * reflection_reader_lib.c -- C code using an object type it never declared, only through the
 * runtime's reflection: what a C/C++ library does with a type first defined in Python.
 *   read_field(obj, name)         -> the field's value (getter of the type or an ancestor)
 *   write_field(obj, name, value) -> None (setter; a FunctionObj setter gets (OpaquePtr, value))
 *   field_names(obj)              -> "a,b,c" in layout order, ancestors first
 */
#include <stdio.h>
#include <string.h>
#include <tvm/ffi/c_api.h>

static int fail(const char* kind, const char* message) {
  TVMFFIErrorSetRaisedFromCStr(kind, message);
  return -1;
}

static int object_and_name(const TVMFFIAny* args, int32_t num_args, int32_t want,
                           TVMFFIObject** obj, TVMFFIByteArray* name) {
  if (num_args != want) return fail("TypeError", "wrong number of arguments");
  if (args[0].type_index < kTVMFFIStaticObjectBegin) return fail("TypeError", "expected an object");
  *obj = args[0].v_obj;
  if (want == 1) return 0;
  if (args[1].type_index == kTVMFFISmallStr) {
    name->data = args[1].v_bytes;
    name->size = args[1].small_str_len;
  } else if (args[1].type_index == kTVMFFIStr) {
    *name = *TVMFFIBytesGetByteArrayPtr(args[1].v_obj);
  } else if (args[1].type_index == kTVMFFIRawStr) {
    name->data = args[1].v_c_str;
    name->size = strlen(args[1].v_c_str);
  } else {
    return fail("TypeError", "expected a field name");
  }
  return 0;
}

static const TVMFFIFieldInfo* find_field(const TVMFFIObject* obj, TVMFFIByteArray name) {
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index);
  for (int32_t d = info->type_depth; d >= 0; --d) {
    const TVMFFITypeInfo* t = d == info->type_depth ? info : info->type_ancestors[d];
    for (int32_t i = 0; i < t->num_fields; ++i) {
      const TVMFFIFieldInfo* f = &t->fields[i];
      if (f->name.size == name.size && memcmp(f->name.data, name.data, name.size) == 0) return f;
    }
  }
  return NULL;
}

int __tvm_ffi_read_field(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  TVMFFIObject* obj;
  TVMFFIByteArray name;
  if (object_and_name(args, num_args, 2, &obj, &name) != 0) return -1;
  const TVMFFIFieldInfo* f = find_field(obj, name);
  if (f == NULL) return fail("AttributeError", "no such field");
  return f->getter((char*)obj + f->offset, result);
}

int __tvm_ffi_write_field(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  (void)result;
  TVMFFIObject* obj;
  TVMFFIByteArray name;
  if (object_and_name(args, num_args, 3, &obj, &name) != 0) return -1;
  const TVMFFIFieldInfo* f = find_field(obj, name);
  if (f == NULL) return fail("AttributeError", "no such field");
  void* addr = (char*)obj + f->offset;
  if (!(f->flags & kTVMFFIFieldFlagBitSetterIsFunctionObj)) {
    return ((TVMFFIFieldSetter)f->setter)(addr, &args[2]);
  }
  TVMFFIAny call_args[2];
  memset(call_args, 0, sizeof(call_args));
  call_args[0].type_index = kTVMFFIOpaquePtr;
  call_args[0].v_ptr = addr;
  call_args[1] = args[2];
  TVMFFIAny out;
  memset(&out, 0, sizeof(out));
  int rc = TVMFFIFunctionCall(f->setter, call_args, 2, &out);
  if (rc == 0 && out.type_index >= kTVMFFIStaticObjectBegin) TVMFFIObjectDecRef(out.v_obj);
  return rc;
}

int __tvm_ffi_field_names(void* self, const TVMFFIAny* args, int32_t num_args, TVMFFIAny* result) {
  (void)self;
  TVMFFIObject* obj;
  if (object_and_name(args, num_args, 1, &obj, NULL) != 0) return -1;
  const TVMFFITypeInfo* info = TVMFFIGetTypeInfo(obj->type_index);
  char text[512];
  size_t used = 0;
  for (int32_t d = 1; d <= info->type_depth; ++d) {
    const TVMFFITypeInfo* t = d == info->type_depth ? info : info->type_ancestors[d];
    for (int32_t i = 0; i < t->num_fields; ++i) {
      int n = snprintf(text + used, sizeof(text) - used, "%s%.*s", used ? "," : "",
                       (int)t->fields[i].name.size, t->fields[i].name.data);
      if (n < 0 || (size_t)n >= sizeof(text) - used) return fail("ValueError", "too many fields");
      used += (size_t)n;
    }
  }
  TVMFFIByteArray bytes = {text, used};
  return TVMFFIStringFromByteArray(&bytes, result);
}
