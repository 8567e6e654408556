// run_example.cc -- a C++ program that loads the kernel library and calls it.
// Usage: run_example <path to add_one_cpp.so>
#include <tvm/ffi/extra/module.h>
#include <tvm/ffi/tvm_ffi.h>

#include <cstdio>
#include <cstdlib>

namespace ffi = tvm::ffi;

// Tensors made by this program keep their data in malloc'ed memory.
struct CPUAllocator {
  void AllocData(DLTensor* tensor) { tensor->data = std::malloc(ffi::GetDataSize(*tensor)); }
  void FreeData(DLTensor* tensor) { std::free(tensor->data); }
};

ffi::Tensor Vector(int64_t n) {
  return ffi::Tensor::FromNDAlloc(CPUAllocator(), {n}, DLDataType{kDLFloat, 32, 1},
                                  DLDevice{kDLCPU, 0});
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <add_one_cpp.so>\n", argv[0]);
    return 2;
  }
  try {
    ffi::Module mod = ffi::Module::LoadFromFile(argv[1]);
    ffi::Function add_one = mod->GetFunction("add_one").value();
    ffi::Tensor x = Vector(5), y = Vector(5);
    for (int i = 0; i < 5; ++i) static_cast<float*>(x.data_ptr())[i] = static_cast<float>(i);
    add_one(x, y);
    std::printf("add_one:");
    for (int i = 0; i < 5; ++i) std::printf(" %g", static_cast<float*>(y.data_ptr())[i]);
    std::printf("\n");

    ffi::Shape shape = mod->GetFunction("shape_of").value()(x).cast<ffi::Shape>();
    std::printf("shape_of: %lld elements in %zu dimension(s)\n",
                static_cast<long long>(shape[0]), shape.size());

    try {  // a kernel error arrives as tvm::ffi::Error with its kind and message
      add_one(x, Vector(3));
    } catch (const ffi::Error& err) {
      std::printf("caught %s: %s\n", err.kind().c_str(), err.message().c_str());
    }
  } catch (const ffi::Error& err) {
    std::fprintf(stderr, "%s\n", err.FullMessage().c_str());
    return 1;
  }
  return 0;
}
