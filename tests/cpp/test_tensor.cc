// test_tensor.cc -- container/tensor.h, shape.h, dtype.h, device.h: tensors made with a custom
// allocator and by the environment allocator, metadata accessors, views, DLPack round trips.
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/extra/c_env_api.h>
#include <tvm/ffi/function.h>

#include <cstdlib>

#include "check.h"

namespace ffi = tvm::ffi;

static int live_buffers = 0;

struct CPUAlloc {
  void AllocData(DLTensor* t) {
    t->data = std::malloc(ffi::GetDataSize(*t) + 1);
    ++live_buffers;
  }
  void FreeData(DLTensor* t) {
    std::free(t->data);
    --live_buffers;
  }
};

void test_from_nd_alloc_and_accessors() {
  {
    ffi::Tensor t = ffi::Tensor::FromNDAlloc(CPUAlloc(), {2, 3, 4}, DLDataType{kDLFloat, 32, 1},
                                             DLDevice{kDLCPU, 0});
    CHECK_EQ(live_buffers, 1);
    CHECK_EQ(t.ndim(), 3);
    CHECK_EQ(t.numel(), 24);
    CHECK_EQ(t.size(0), 2);
    CHECK_EQ(t.size(-1), 4);
    CHECK(t.shape() == ffi::ShapeView({2, 3, 4}));
    CHECK(t.strides() == ffi::ShapeView({12, 4, 1}));
    CHECK_EQ(t.stride(1), 4);
    CHECK(t.IsContiguous());
    CHECK(t.dtype() == (DLDataType{kDLFloat, 32, 1}));
    CHECK(t.device() == (DLDevice{kDLCPU, 0}));
    CHECK_EQ(t->type_index(), ffi::TypeIndex::kTVMFFITensor);
    CHECK_THROWS(t.size(3), "IndexError", "out of range");
    // The DLTensor sits at +24 of the object, where every runtime reads it.
    CHECK_EQ(reinterpret_cast<char*>(t.GetDLTensorPtr()) - reinterpret_cast<char*>(t.get()), 24);
    float* data = static_cast<float*>(t.data_ptr());
    for (int i = 0; i < 24; ++i) data[i] = static_cast<float>(i);
    ffi::TensorView view = t;
    CHECK_EQ(static_cast<float*>(view.data_ptr())[5], 5.0f);
    CHECK_EQ(view.numel(), 24);
  }
  CHECK_EQ(live_buffers, 0);
}

void test_strided_tensors() {
  ffi::Tensor t = ffi::Tensor::FromNDAllocStrided(CPUAlloc(), {3, 2}, {1, 3},
                                                  DLDataType{kDLInt, 64, 1}, DLDevice{kDLCPU, 0});
  CHECK(!t.IsContiguous());
  CHECK(t.strides() == ffi::ShapeView({1, 3}));
  CHECK_THROWS(ffi::Tensor::FromNDAllocStrided(CPUAlloc(), {3, 2}, {1}, DLDataType{kDLInt, 64, 1},
                                               DLDevice{kDLCPU, 0}),
               "ValueError", "strides");
}

void test_dlpack_round_trip_keeps_the_tensor_alive() {
  ffi::Tensor t = ffi::Tensor::FromNDAlloc(CPUAlloc(), {5}, DLDataType{kDLUInt, 8, 1},
                                           DLDevice{kDLCPU, 0});
  CHECK_EQ(ffi::GetDataSize(t), 5u);
  CHECK_EQ(ffi::GetDataSize(ffi::TensorView(t)), 5u);
  // The object-level export, as reference-style code spells it.
  DLManagedTensor* legacy = static_cast<const ffi::TensorObj*>(t.get())->ToDLPack();
  CHECK_EQ(t.use_count(), 2);
  CHECK_EQ(legacy->dl_tensor.data, t.data_ptr());
  legacy->deleter(legacy);
  CHECK_EQ(t.use_count(), 1);
  CHECK_THROWS(ffi::Tensor().ToDLPack(), "ValueError", "the tensor is undefined");
  CHECK_THROWS(ffi::GetDataSize(ffi::Tensor()), "ValueError", "the tensor is undefined");
  DLManagedTensorVersioned* managed = t.ToDLPackVersioned();
  CHECK_EQ(t.use_count(), 2);
  CHECK_EQ(managed->dl_tensor.data, t.data_ptr());
  ffi::Tensor back = ffi::Tensor::FromDLPackVersioned(managed);
  CHECK_EQ(back.data_ptr(), t.data_ptr());
  CHECK(back.shape() == t.shape());
  t = ffi::Tensor();
  CHECK_EQ(live_buffers, 1);
  back = ffi::Tensor();
  CHECK_EQ(live_buffers, 0);
}

// A DLPack allocator the environment hands out, as a framework would.
static int env_allocations = 0;
static int EnvAlloc(DLTensor* proto, DLManagedTensorVersioned** out, void*,
                    void (*)(void*, const char*, const char*)) {
  ++env_allocations;
  auto* managed = new DLManagedTensorVersioned{};
  managed->version = DLPackVersion{1, 3};
  managed->dl_tensor = *proto;
  auto* shape = new int64_t[proto->ndim];
  for (int i = 0; i < proto->ndim; ++i) shape[i] = proto->shape[i];
  managed->dl_tensor.shape = shape;
  managed->dl_tensor.strides = nullptr;
  managed->dl_tensor.data = std::malloc(ffi::GetDataSize(*proto) + 1);
  managed->deleter = [](DLManagedTensorVersioned* self) {
    std::free(self->dl_tensor.data);
    delete[] self->dl_tensor.shape;
    delete self;
  };
  *out = managed;
  return 0;
}

void test_from_env_alloc() {
  DLPackManagedTensorAllocator previous = nullptr;
  CHECK_EQ(TVMFFIEnvSetDLPackManagedTensorAllocator(EnvAlloc, 0, &previous), 0);
  ffi::Tensor t = ffi::Tensor::FromEnvAlloc(TVMFFIEnvTensorAlloc, {2, 5},
                                            DLDataType{kDLFloat, 16, 1}, DLDevice{kDLCPU, 0});
  CHECK(t.shape() == ffi::ShapeView({2, 5}));
  CHECK(t.strides() == ffi::ShapeView({5, 1}));  // the runtime fills in compact strides
  CHECK(t.dtype() == (DLDataType{kDLFloat, 16, 1}));
  CHECK_EQ(env_allocations, 1);
  TVMFFIEnvSetDLPackManagedTensorAllocator(previous, 0, nullptr);
}

void test_tensor_arguments_accept_views_and_objects() {
  ffi::Function ndim_of = ffi::Function::FromTyped([](ffi::TensorView v) { return v.ndim(); }, "ndim_of");
  ffi::Function numel_of = ffi::Function::FromTyped([](ffi::Tensor v) { return v.numel(); }, "numel_of");
  ffi::Tensor t = ffi::Tensor::FromNDAlloc(CPUAlloc(), {2, 2}, DLDataType{kDLFloat, 32, 1},
                                           DLDevice{kDLCPU, 0});
  CHECK_EQ(ndim_of(t).cast<int>(), 2);
  CHECK_EQ(ndim_of(t.GetDLTensorPtr()).cast<int>(), 2);
  CHECK_EQ(numel_of(t).cast<int>(), 4);
  CHECK_THROWS(numel_of(t.GetDLTensorPtr()), "TypeError", "Expected `ffi.Tensor` but got `DLTensor*`");
  CHECK_THROWS(ndim_of(1), "TypeError", "Expected `DLTensor*` but got `int`");
  // Raw pointers travel as views only: an owning Any would outlive the memory it points at.
  ffi::AnyView view = t.GetDLTensorPtr();
  CHECK_EQ(view.type_index(), static_cast<int32_t>(ffi::TypeIndex::kTVMFFIDLTensorPtr));
  CHECK_THROWS(ffi::Any(t.GetDLTensorPtr()), "RuntimeError",
               "DLTensor* cannot be held in Any as it does not retain ownership");
  CHECK_THROWS(ffi::Any(ffi::TensorView(t)), "RuntimeError",
               "TensorView cannot be held in Any as it does not retain ownership");
}

void test_shape_dtype_device() {
  ffi::Shape s{1, 2, 3};
  CHECK_EQ(s.size(), 3u);
  CHECK_EQ(s.Product(), 6);
  CHECK_EQ(s->type_index(), ffi::TypeIndex::kTVMFFIShape);
  ffi::Any as_any = s;
  CHECK_EQ(as_any.cast<ffi::Shape>()[2], 3);
  CHECK(ffi::DLDataTypeToString(DLDataType{kDLBfloat, 16, 1}) == "bfloat16");
  CHECK(ffi::StringToDLDataType("int8x4") == (DLDataType{kDLInt, 8, 4}));
  CHECK_THROWS(ffi::StringToDLDataType("complex64"), "ValueError", "complex64");
  ffi::Any dtype_text = "float32";
  CHECK(dtype_text.cast<DLDataType>() == (DLDataType{kDLFloat, 32, 1}));
  ffi::Any device_text = "cuda:1";
  CHECK(device_text.cast<DLDevice>() == (DLDevice{kDLCUDA, 1}));
  CHECK_THROWS(ffi::Any("nodevice").cast<DLDevice>(), "TypeError", "Device");
  std::ostringstream os;
  os << DLDataType{kDLFloat, 32, 1} << ' ' << DLDevice{kDLCUDA, 2} << ' ' << ffi::ShapeView({4, 5});
  CHECK_EQ(os.str(), "float32 cuda:2 [4, 5]");
}

int main() {
  RUN(test_from_nd_alloc_and_accessors);
  RUN(test_strided_tensors);
  RUN(test_dlpack_round_trip_keeps_the_tensor_alive);
  RUN(test_from_env_alloc);
  RUN(test_tensor_arguments_accept_views_and_objects);
  RUN(test_shape_dtype_device);
  return CHECK_MAIN_RESULT();
}
