/* Tensors: DLPack import and export (legacy and versioned), unsafe views, and shape objects. */
#include <stdint.h>

#include "check.h"

/* ---- a producer: a DLPack tensor over caller memory that counts its deleter calls ---- */

typedef struct {
  DLManagedTensor legacy;
  DLManagedTensorVersioned versioned;
  int64_t shape[4];
  int64_t strides[4];
  int deleted;
} Producer;

static void legacy_deleter(DLManagedTensor* self) { ((Producer*)self->manager_ctx)->deleted++; }
static void versioned_deleter(DLManagedTensorVersioned* self) {
  ((Producer*)self->manager_ctx)->deleted++;
}

static DLTensor float_tensor(void* data, int32_t ndim, int64_t* shape, int64_t* strides) {
  DLTensor t;
  memset(&t, 0, sizeof(t));
  t.data = data;
  t.device.device_type = kDLCPU;
  t.device.device_id = 0;
  t.ndim = ndim;
  t.dtype.code = kDLFloat;
  t.dtype.bits = 32;
  t.dtype.lanes = 1;
  t.shape = shape;
  t.strides = strides;
  return t;
}

/* A 2x3 float32 tensor over data; strides NULL (compact) unless with_strides. */
static void producer_init(Producer* p, void* data, int with_strides) {
  memset(p, 0, sizeof(*p));
  p->shape[0] = 2;
  p->shape[1] = 3;
  p->strides[0] = 3;
  p->strides[1] = 1;
  DLTensor t = float_tensor(data, 2, p->shape, with_strides ? p->strides : NULL);
  p->legacy.dl_tensor = t;
  p->legacy.manager_ctx = p;
  p->legacy.deleter = legacy_deleter;
  p->versioned.version.major = 1;
  p->versioned.version.minor = 3;
  p->versioned.dl_tensor = t;
  p->versioned.manager_ctx = p;
  p->versioned.deleter = versioned_deleter;
}

static _Alignas(64) float g_data[64];

/* ---- import ---- */

static void test_from_dlpack_legacy_is_zero_copy_and_deletes_once(void) {
  Producer p;
  producer_init(&p, g_data, 1);
  void* tensor = NULL;
  CHECK_EQ_INT(TVMFFITensorFromDLPack(&p.legacy, 0, 0, &tensor), 0);
  CHECK_EQ_INT(TVMFFIObjectGetTypeIndex(tensor), kTVMFFITensor);
  DLTensor* t = TVMFFITensorGetDLTensorPtr(tensor);
  CHECK((char*)t == (char*)tensor + 24);
  CHECK(t->data == g_data);     /* no copy of the data */
  CHECK(t->shape == p.shape);   /* nor of the producer's shape and strides */
  CHECK(t->strides == p.strides);
  CHECK_EQ_INT(t->ndim, 2);
  CHECK_EQ_INT(t->dtype.bits, 32);
  CHECK_EQ_INT(p.deleted, 0);
  TVMFFIObjectIncRef(tensor);
  TVMFFIObjectDecRef(tensor);
  CHECK_EQ_INT(p.deleted, 0);
  TVMFFIObjectDecRef(tensor);
  CHECK_EQ_INT(p.deleted, 1);
}

static void test_from_dlpack_versioned_appends_compact_strides(void) {
  Producer p;
  producer_init(&p, g_data, 0);
  void* tensor = NULL;
  CHECK_EQ_INT(TVMFFITensorFromDLPackVersioned(&p.versioned, 64, 1, &tensor), 0);
  DLTensor* t = TVMFFITensorGetDLTensorPtr(tensor);
  CHECK(t->shape == p.shape);
  CHECK(t->strides != NULL);
  if (t->strides != NULL) {
    CHECK_EQ_INT(t->strides[0], 3);
    CHECK_EQ_INT(t->strides[1], 1);
  }
  CHECK(p.versioned.dl_tensor.strides == NULL); /* the producer's struct is left alone */
  TVMFFIObjectDecRef(tensor);
  CHECK_EQ_INT(p.deleted, 1);
}

static void test_from_dlpack_zero_dim_and_byte_offset(void) {
  Producer p;
  producer_init(&p, g_data, 0);
  p.versioned.dl_tensor.ndim = 0;
  p.versioned.dl_tensor.shape = NULL;
  p.versioned.dl_tensor.byte_offset = 8;
  void* tensor = NULL;
  CHECK_EQ_INT(TVMFFITensorFromDLPackVersioned(&p.versioned, 8, 1, &tensor), 0);
  DLTensor* t = TVMFFITensorGetDLTensorPtr(tensor);
  CHECK_EQ_INT(t->ndim, 0);
  CHECK(t->strides == NULL); /* allowed for 0-d tensors only */
  CHECK_EQ_INT(t->byte_offset, 8);
  TVMFFIObjectDecRef(tensor);
  CHECK_EQ_INT(p.deleted, 1);
}

static void test_from_dlpack_null_deleter_is_allowed(void) {
  Producer p;
  producer_init(&p, g_data, 1);
  p.legacy.deleter = NULL;
  void* tensor = NULL;
  CHECK_EQ_INT(TVMFFITensorFromDLPack(&p.legacy, 0, 0, &tensor), 0);
  TVMFFIObjectDecRef(tensor);
  CHECK_EQ_INT(p.deleted, 0);
}

static void test_from_dlpack_alignment(void) {
  Producer p;
  void* tensor = NULL;
  /* CPU: the address data + byte_offset must be aligned. */
  producer_init(&p, (char*)g_data + 4, 1);
  CHECK_EQ_INT(TVMFFITensorFromDLPack(&p.legacy, 64, 0, &tensor), -1);
  CHECK_RAISED("RuntimeError", "Data is not aligned to 64 bytes");
  CHECK_EQ_INT(p.deleted, 0); /* ownership was not taken */
  p.legacy.dl_tensor.byte_offset = 60; /* 4 + 60 = 64: aligned again */
  CHECK_EQ_INT(TVMFFITensorFromDLPack(&p.legacy, 64, 0, &tensor), 0);
  TVMFFIObjectDecRef(tensor);
  CHECK_EQ_INT(p.deleted, 1);
  /* The message shows the offending address parts. */
  producer_init(&p, g_data, 1);
  p.versioned.dl_tensor.byte_offset = 4;
  CHECK_EQ_INT(TVMFFITensorFromDLPackVersioned(&p.versioned, 16, 0, &tensor), -1);
  CHECK_RAISED("RuntimeError", "byte_offset 4");
  CHECK_EQ_INT(p.deleted, 0);
  /* Devices the host cannot address: only byte_offset is checked. */
  producer_init(&p, (char*)g_data + 4, 1);
  p.versioned.dl_tensor.device.device_type = kDLOpenCL;
  CHECK_EQ_INT(TVMFFITensorFromDLPackVersioned(&p.versioned, 64, 0, &tensor), 0);
  TVMFFIObjectDecRef(tensor);
  CHECK_EQ_INT(p.deleted, 1);
  producer_init(&p, g_data, 1);
  p.versioned.dl_tensor.device.device_type = kDLVulkan;
  p.versioned.dl_tensor.byte_offset = 32;
  CHECK_EQ_INT(TVMFFITensorFromDLPackVersioned(&p.versioned, 64, 0, &tensor), -1);
  CHECK_RAISED("RuntimeError", "byte_offset 32 on device type 7");
  CHECK_EQ_INT(p.deleted, 0);
  /* CUDA memory is directly addressable: its pointer counts. */
  producer_init(&p, (char*)g_data + 4, 1);
  p.legacy.dl_tensor.device.device_type = kDLCUDA;
  CHECK_EQ_INT(TVMFFITensorFromDLPack(&p.legacy, 64, 0, &tensor), -1);
  CHECK_RAISED("RuntimeError", "not aligned");
  CHECK_EQ_INT(TVMFFITensorFromDLPack(&p.legacy, -8, 0, &tensor), -1);
  CHECK_RAISED("ValueError", "require_alignment");
  CHECK_EQ_INT(p.deleted, 0);
}

static void test_from_dlpack_contiguity(void) {
  Producer p;
  void* tensor = NULL;
  /* Column-major 2x3 is not row-major contiguous. */
  producer_init(&p, g_data, 1);
  p.strides[0] = 1;
  p.strides[1] = 2;
  CHECK_EQ_INT(TVMFFITensorFromDLPack(&p.legacy, 0, 1, &tensor), -1);
  CHECK_RAISED("RuntimeError", "Tensor is not contiguous: shape [2, 3], strides [1, 2]");
  CHECK_EQ_INT(p.deleted, 0);
  /* Without the requirement the same tensor is accepted as it is. */
  CHECK_EQ_INT(TVMFFITensorFromDLPack(&p.legacy, 0, 0, &tensor), 0);
  CHECK(TVMFFITensorGetDLTensorPtr(tensor)->strides == p.strides);
  TVMFFIObjectDecRef(tensor);
  CHECK_EQ_INT(p.deleted, 1);
  /* Dimensions of extent 1 may carry any stride. */
  producer_init(&p, g_data, 1);
  p.shape[0] = 1;
  p.strides[0] = 12345;
  CHECK_EQ_INT(TVMFFITensorFromDLPackVersioned(&p.versioned, 0, 1, &tensor), 0);
  TVMFFIObjectDecRef(tensor);
  /* Any zero extent makes the tensor contiguous whatever the strides. */
  producer_init(&p, g_data, 1);
  p.shape[1] = 0;
  p.strides[0] = 7;
  p.strides[1] = 9;
  CHECK_EQ_INT(TVMFFITensorFromDLPackVersioned(&p.versioned, 0, 1, &tensor), 0);
  TVMFFIObjectDecRef(tensor);
  CHECK_EQ_INT(p.deleted, 1);
}

static void test_from_dlpack_rejects_subbyte_padded(void) {
  Producer p;
  producer_init(&p, g_data, 1);
  p.versioned.flags = DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED;
  void* tensor = NULL;
  CHECK_EQ_INT(TVMFFITensorFromDLPackVersioned(&p.versioned, 0, 0, &tensor), -1);
  CHECK_RAISED("RuntimeError", "Subbyte type padded is not yet supported");
  CHECK_EQ_INT(p.deleted, 0);
  /* READ_ONLY and IS_COPIED are accepted; the version is not checked. */
  p.versioned.flags = DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_COPIED;
  p.versioned.version.major = 99;
  CHECK_EQ_INT(TVMFFITensorFromDLPackVersioned(&p.versioned, 0, 0, &tensor), 0);
  TVMFFIObjectDecRef(tensor);
  CHECK_EQ_INT(p.deleted, 1);
}

static void test_from_dlpack_rejects_malformed_input(void) {
  Producer p;
  producer_init(&p, g_data, 1);
  void* tensor = NULL;
  CHECK_EQ_INT(TVMFFITensorFromDLPack(NULL, 0, 0, &tensor), -1);
  CHECK_RAISED("ValueError", "from and out are required");
  CHECK_EQ_INT(TVMFFITensorFromDLPack(&p.legacy, 0, 0, NULL), -1);
  CHECK_RAISED("ValueError", "TVMFFITensorFromDLPack");
  CHECK_EQ_INT(TVMFFITensorFromDLPackVersioned(NULL, 0, 0, &tensor), -1);
  CHECK_RAISED("ValueError", "TVMFFITensorFromDLPackVersioned");
  p.legacy.dl_tensor.ndim = -1;
  CHECK_EQ_INT(TVMFFITensorFromDLPack(&p.legacy, 0, 0, &tensor), -1);
  CHECK_RAISED("ValueError", "ndim must be >= 0, got -1");
  p.versioned.dl_tensor.shape = NULL;
  CHECK_EQ_INT(TVMFFITensorFromDLPackVersioned(&p.versioned, 0, 0, &tensor), -1);
  CHECK_RAISED("ValueError", "shape is NULL while ndim is 2");
  producer_init(&p, g_data, 0);
  p.shape[1] = -3;
  CHECK_EQ_INT(TVMFFITensorFromDLPack(&p.legacy, 0, 0, &tensor), -1);
  CHECK_RAISED("ValueError", "shape[1] is negative (-3)");
  p.shape[0] = INT64_MAX / 2;
  p.shape[1] = 3;
  CHECK_EQ_INT(TVMFFITensorFromDLPack(&p.legacy, 0, 0, &tensor), -1);
  CHECK_RAISED("ValueError", "overflows");
  producer_init(&p, g_data, 1);
  p.legacy.dl_tensor.dtype.lanes = 0;
  p.versioned.dl_tensor.dtype.lanes = 0;
  CHECK_EQ_INT(TVMFFITensorFromDLPack(&p.legacy, 0, 0, &tensor), -1);
  CHECK_RAISED("ValueError", "lanes = 0");
  CHECK_EQ_INT(TVMFFITensorFromDLPackVersioned(&p.versioned, 0, 0, &tensor), -1);
  CHECK_RAISED("ValueError", "lanes = 0");
  CHECK_EQ_INT(p.deleted, 0);
  CHECK(tensor == NULL);
}

/* ---- export ---- */

static void test_to_dlpack_round_trips(void) {
  Producer p;
  producer_init(&p, g_data, 0);
  void* tensor = NULL;
  CHECK_EQ_INT(TVMFFITensorFromDLPackVersioned(&p.versioned, 0, 0, &tensor), 0);
  DLTensor* t = TVMFFITensorGetDLTensorPtr(tensor);

  DLManagedTensorVersioned* v = NULL;
  CHECK_EQ_INT(TVMFFITensorToDLPackVersioned(tensor, &v), 0);
  CHECK_EQ_INT(v->version.major, 1);
  CHECK_EQ_INT(v->version.minor, 3);
  CHECK_EQ_INT(v->flags, 0);
  CHECK(v->manager_ctx == tensor);
  CHECK(v->dl_tensor.data == g_data);
  CHECK(v->dl_tensor.shape == t->shape && v->dl_tensor.strides == t->strides);
  CHECK_EQ_INT(check_strong_count(tensor), 2);

  DLManagedTensor* legacy = NULL;
  CHECK_EQ_INT(TVMFFITensorToDLPack(tensor, &legacy), 0);
  CHECK(legacy->manager_ctx == tensor);
  CHECK(legacy->dl_tensor.data == g_data);
  CHECK_EQ_INT(check_strong_count(tensor), 3);

  /* Import the export again: the new tensor owns the exported struct. */
  void* again = NULL;
  CHECK_EQ_INT(TVMFFITensorFromDLPack(legacy, 64, 1, &again), 0);
  CHECK(again != tensor);
  CHECK(TVMFFITensorGetDLTensorPtr(again)->data == g_data);

  TVMFFIObjectDecRef(tensor); /* the exports keep it alive */
  CHECK_EQ_INT(p.deleted, 0);
  v->deleter(v);
  CHECK_EQ_INT(p.deleted, 0);
  TVMFFIObjectDecRef(again); /* runs the legacy export's deleter, dropping the last ref */
  CHECK_EQ_INT(p.deleted, 1);
}

static void test_to_dlpack_zero_dim_and_errors(void) {
  Producer p;
  producer_init(&p, g_data, 0);
  p.legacy.dl_tensor.ndim = 0;
  p.legacy.dl_tensor.shape = NULL;
  void* tensor = NULL;
  CHECK_EQ_INT(TVMFFITensorFromDLPack(&p.legacy, 0, 0, &tensor), 0);
  DLManagedTensor* legacy = NULL;
  CHECK_EQ_INT(TVMFFITensorToDLPack(tensor, &legacy), 0);
  CHECK_EQ_INT(legacy->dl_tensor.ndim, 0);
  legacy->deleter(legacy);
  CHECK_EQ_INT(check_strong_count(tensor), 1);

  CHECK_EQ_INT(TVMFFITensorToDLPack(NULL, &legacy), -1);
  CHECK_RAISED("ValueError", "TVMFFITensorToDLPack");
  DLManagedTensorVersioned* v = NULL;
  CHECK_EQ_INT(TVMFFITensorToDLPackVersioned(tensor, NULL), -1);
  CHECK_RAISED("ValueError", "TVMFFITensorToDLPackVersioned");
  /* Only tensors can be exported. */
  TVMFFIByteArray text = check_ba("not a tensor at all");
  TVMFFIAny str;
  TVMFFIStringFromByteArray(&text, &str);
  CHECK_EQ_INT(TVMFFITensorToDLPackVersioned(str.v_obj, &v), -1);
  CHECK_RAISED("TypeError", "expected `ffi.Tensor` but got `ffi.String`");
  CHECK_EQ_INT(TVMFFITensorToDLPack(str.v_obj, &legacy), -1);
  CHECK_RAISED("TypeError", "ffi.Tensor");
  TVMFFIObjectDecRef(str.v_obj);
  TVMFFIObjectDecRef(tensor);
  CHECK_EQ_INT(p.deleted, 1);
}

/* ---- unsafe views ---- */

static void test_unsafe_view_keeps_source_alive(void) {
  Producer p;
  producer_init(&p, g_data, 0);
  void* source = NULL;
  CHECK_EQ_INT(TVMFFITensorFromDLPackVersioned(&p.versioned, 0, 0, &source), 0);

  /* The second row of the 2x3 source, as a 1-D view of 3 elements. */
  int64_t shape[1] = {3}, strides[1] = {1};
  DLTensor proto = float_tensor(g_data, 1, shape, strides);
  proto.byte_offset = 3 * sizeof(float);
  void* view = NULL;
  CHECK_EQ_INT(TVMFFITensorCreateUnsafeView(source, &proto, &view), 0);
  CHECK_EQ_INT(TVMFFIObjectGetTypeIndex(view), kTVMFFITensor);
  CHECK_EQ_INT(check_strong_count(source), 2);
  DLTensor* t = TVMFFITensorGetDLTensorPtr(view);
  CHECK(t->data == g_data);
  CHECK_EQ_INT(t->byte_offset, 12);
  /* shape and strides are copies owned by the view */
  CHECK(t->shape != shape && t->strides != strides);
  shape[0] = 99;
  strides[0] = 99;
  CHECK_EQ_INT(t->shape[0], 3);
  CHECK_EQ_INT(t->strides[0], 1);

  TVMFFIObjectDecRef(source);
  CHECK_EQ_INT(p.deleted, 0); /* the view still holds the source */
  CHECK_EQ_INT(t->shape[0], 3);
  /* Views export like any tensor. */
  DLManagedTensorVersioned* v = NULL;
  CHECK_EQ_INT(TVMFFITensorToDLPackVersioned(view, &v), 0);
  TVMFFIObjectDecRef(view);
  CHECK_EQ_INT(p.deleted, 0);
  v->deleter(v);
  CHECK_EQ_INT(p.deleted, 1);
}

static void test_unsafe_view_errors(void) {
  Producer p;
  producer_init(&p, g_data, 0);
  void* source = NULL;
  CHECK_EQ_INT(TVMFFITensorFromDLPackVersioned(&p.versioned, 0, 0, &source), 0);
  int64_t shape[2] = {2, 3};
  DLTensor proto = float_tensor(g_data, 2, shape, NULL);
  void* view = NULL;
  CHECK_EQ_INT(TVMFFITensorCreateUnsafeView(source, &proto, &view), -1);
  CHECK_RAISED("ValueError", "prototype strides must not be NULL");
  CHECK_EQ_INT(TVMFFITensorCreateUnsafeView(NULL, &proto, &view), -1);
  CHECK_RAISED("ValueError", "source, prototype and out are required");
  CHECK_EQ_INT(TVMFFITensorCreateUnsafeView(source, NULL, &view), -1);
  CHECK_RAISED("ValueError", "TVMFFITensorCreateUnsafeView");
  proto.ndim = -2;
  CHECK_EQ_INT(TVMFFITensorCreateUnsafeView(source, &proto, &view), -1);
  CHECK_RAISED("ValueError", "ndim must be >= 0");
  CHECK_EQ_INT(check_strong_count(source), 1);
  /* A 0-d view needs no strides. */
  proto.ndim = 0;
  proto.shape = NULL;
  CHECK_EQ_INT(TVMFFITensorCreateUnsafeView(source, &proto, &view), 0);
  CHECK_EQ_INT(TVMFFITensorGetDLTensorPtr(view)->ndim, 0);
  CHECK_EQ_INT(check_strong_count(source), 2);
  TVMFFIObjectDecRef(view);
  CHECK_EQ_INT(check_strong_count(source), 1);
  TVMFFIObjectDecRef(source);
  CHECK_EQ_INT(p.deleted, 1);
}

/* ---- shapes ---- */

static void* global(const char* name) {
  void* f = NULL;
  TVMFFIByteArray n = check_ba(name);
  CHECK_EQ_INT(TVMFFIFunctionGetGlobal(&n, &f), 0);
  CHECK(f != NULL);
  return f;
}

static TVMFFIAny int_arg(int64_t v) {
  TVMFFIAny a;
  memset(&a, 0, sizeof(a));
  a.type_index = kTVMFFIInt;
  a.v_int64 = v;
  return a;
}

static void test_shape_global(void) {
  void* make_shape = global("ffi.Shape");
  TVMFFIAny args[20];
  for (int i = 0; i < 20; ++i) args[i] = int_arg(i * 10 - 5);
  TVMFFIAny result;
  memset(&result, 0, sizeof(result));
  CHECK_EQ_INT(TVMFFIFunctionCall(make_shape, args, 20, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFIShape);
  TVMFFIShapeCell* cell = TVMFFIShapeGetCellPtr(result.v_obj);
  CHECK_EQ_INT(cell->size, 20);
  CHECK(cell->data == (const int64_t*)((char*)result.v_obj + 40)); /* stored inline */
  CHECK_EQ_INT(cell->data[0], -5);
  CHECK_EQ_INT(cell->data[19], 185);
  CHECK_EQ_INT(check_strong_count(result.v_obj), 1);
  TVMFFIObjectDecRef(result.v_obj);

  /* No arguments: the empty shape of a scalar. */
  memset(&result, 0, sizeof(result));
  CHECK_EQ_INT(TVMFFIFunctionCall(make_shape, NULL, 0, &result), 0);
  CHECK_EQ_INT(result.type_index, kTVMFFIShape);
  CHECK_EQ_INT(TVMFFIShapeGetCellPtr(result.v_obj)->size, 0);
  TVMFFIObjectDecRef(result.v_obj);

  /* Anything but an int is rejected, naming the argument. */
  args[1].type_index = kTVMFFIFloat;
  args[1].v_float64 = 1.5;
  memset(&result, 0, sizeof(result));
  CHECK_EQ_INT(TVMFFIFunctionCall(make_shape, args, 3, &result), -1);
  CHECK_RAISED("ValueError", "argument #1 of ffi.Shape is `float`");
  CHECK_EQ_INT(result.type_index, kTVMFFINone);
  args[1].type_index = kTVMFFIBool;
  args[1].v_int64 = 1;
  CHECK_EQ_INT(TVMFFIFunctionCall(make_shape, args, 3, &result), -1);
  CHECK_RAISED("ValueError", "Expect shape to take list of int arguments");
  TVMFFIObjectDecRef(make_shape);
}

int main(void) {
  RUN(test_from_dlpack_legacy_is_zero_copy_and_deletes_once);
  RUN(test_from_dlpack_versioned_appends_compact_strides);
  RUN(test_from_dlpack_zero_dim_and_byte_offset);
  RUN(test_from_dlpack_null_deleter_is_allowed);
  RUN(test_from_dlpack_alignment);
  RUN(test_from_dlpack_contiguity);
  RUN(test_from_dlpack_rejects_subbyte_padded);
  RUN(test_from_dlpack_rejects_malformed_input);
  RUN(test_to_dlpack_round_trips);
  RUN(test_to_dlpack_zero_dim_and_errors);
  RUN(test_unsafe_view_keeps_source_alive);
  RUN(test_unsafe_view_errors);
  RUN(test_shape_global);
  return CHECK_MAIN_RESULT();
}
