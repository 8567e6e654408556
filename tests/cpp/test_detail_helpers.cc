// test_detail_helpers.cc -- the reference's `detail::` (alias `details::`) helpers that kernel
// libraries call directly: shapes and strides built in place (jax-tvm-ffi fills the strides of
// the DLTensors it passes with FillStridesFromShape), byte sizes, aligned raw memory, and dtype
// code names.
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/dtype.h>
#include <tvm/ffi/memory.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <vector>

#include "check.h"

namespace ffi = tvm::ffi;

void test_shapes_built_in_place() {
  int64_t* extents = nullptr;
  ffi::ObjectPtr<ffi::ShapeObj> empty = ffi::details::MakeEmptyShape(3, &extents);
  extents[0] = 2, extents[1] = 3, extents[2] = 4;
  CHECK_EQ(empty->size, 3u);
  CHECK_EQ(empty->Product(), 24);
  CHECK(ffi::details::MakeEmptyShape(0, nullptr)->size == 0u);  // the out pointer may be null
  std::vector<int> dims{5, 6};
  ffi::ObjectPtr<ffi::ShapeObj> copied = ffi::detail::MakeInplaceShape(dims.begin(), dims.end());
  CHECK_EQ(copied->data[1], 6);
  ffi::Shape shape = ffi::Shape(dims.begin(), dims.end());
  CHECK(ffi::ShapeView(copied->data, copied->size) == shape.view());
}

void test_strides_from_shape() {
  int64_t extents[3] = {2, 3, 4};
  int64_t strides[3] = {0, 0, 0};
  ffi::details::FillStridesFromShape(ffi::ShapeView(extents, 3), strides);
  CHECK_EQ(strides[0], 12);
  CHECK_EQ(strides[1], 4);
  CHECK_EQ(strides[2], 1);
  ffi::ObjectPtr<ffi::ShapeObj> made = ffi::details::MakeStridesFromShape(ffi::ShapeView(extents, 3));
  CHECK_EQ(made->data[0], 12);
  CHECK(ffi::Shape::StridesFromShape(ffi::ShapeView(extents, 3)).view() ==
        ffi::ShapeView(made->data, made->size));
  ffi::details::FillStridesFromShape(ffi::ShapeView(), strides);  // a scalar has no strides
}

void test_data_size() {
  DLDataType f32{kDLFloat, 32, 1};
  DLDataType fp4x2{kDLFloat4_e2m1fn, 4, 2};
  CHECK_EQ(ffi::details::GetDataSize(10, f32), 40u);  // the newer headers' spelling
  CHECK_EQ(ffi::GetDataSize(3, fp4x2), 3u);            // sub-byte types round up per element pair
}

void test_aligned_memory() {
  for (size_t align : {size_t(8), size_t(64), size_t(256), size_t(4096)}) {
    void* ptr = ffi::details::AlignedAlloc(1000, align);
    CHECK(reinterpret_cast<uintptr_t>(ptr) % align == 0);
    std::memset(ptr, 0xab, 1000);
    ffi::details::AlignedFree(ptr);
  }
  ffi::details::AlignedFree(nullptr);
#ifndef __SANITIZE_ADDRESS__  // AddressSanitizer aborts on an impossible size instead of failing it
  bool threw = false;
  try {
    ffi::details::AlignedAlloc(std::numeric_limits<size_t>::max() / 2, 64);
  } catch (const std::bad_alloc&) {
    threw = true;
  }
  CHECK(threw);
#endif
}

void test_dtype_code_names() {
  CHECK(std::string(ffi::details::DLDataTypeCodeAsCStr(kDLInt)) == "int");
  CHECK(std::string(ffi::details::DLDataTypeCodeAsCStr(kDLBfloat)) == "bfloat");
  CHECK(std::string(ffi::details::DLDataTypeCodeAsCStr(kDLFloat8_e4m3fn)) == "float8_e4m3fn");
  CHECK(std::string(ffi::details::DLDataTypeCodeAsCStr(kDLFloat4_e2m1fn)) == "float4_e2m1fn");
  CHECK(std::string(ffi::details::DLDataTypeCodeAsCStr(static_cast<DLDataTypeCode>(130))) == "custom");
  CHECK_THROWS(ffi::details::DLDataTypeCodeAsCStr(static_cast<DLDataTypeCode>(100)), "ValueError",
               "unknown type_code=100");
}

int main() {
  RUN(test_shapes_built_in_place);
  RUN(test_strides_from_shape);
  RUN(test_data_size);
  RUN(test_aligned_memory);
  RUN(test_dtype_code_names);
  return CHECK_MAIN_RESULT();
}
