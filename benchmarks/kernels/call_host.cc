// call_host.cc -- times exported typed functions of kernel libraries from C, without Python:
// the per-call cost of the argument unpacking, result packing and error plumbing that the
// C++ headers generate. Usage: call_host <calls> <kernel.so>...
// Each library must export square(int) -> int, shout(str) -> str and add_one(x, y) over
// float32 tensors (tests/compat/kernels/ref_cpp_kernel.cc). Prints "<lib> <case> <ns>" lines.
#include <tvm/ffi/c_api.h>

#include <dlfcn.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

static TVMFFIAny Arg(int32_t type_index) {
  TVMFFIAny a;
  std::memset(&a, 0, sizeof(a));
  a.type_index = type_index;
  return a;
}

template <typename F>
static double NanosPerCall(long calls, F&& body) {
  auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < calls; ++i) body();
  auto stop = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::nano>(stop - start).count() / static_cast<double>(calls);
}

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s <calls> <kernel.so>...\n", argv[0]);
    return 2;
  }
  long calls = std::atol(argv[1]);
  float in[4] = {0}, out[4] = {0};
  int64_t shape[1] = {4}, strides[1] = {1};
  DLTensor x{in, {kDLCPU, 0}, 1, {kDLFloat, 32, 1}, shape, strides, 0};
  DLTensor y = x;
  y.data = out;
  for (int k = 2; k < argc; ++k) {
    void* lib = dlopen(argv[k], RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
      std::fprintf(stderr, "%s\n", dlerror());
      return 1;
    }
    auto square = reinterpret_cast<TVMFFISafeCallType>(dlsym(lib, "__tvm_ffi_square"));
    auto shout = reinterpret_cast<TVMFFISafeCallType>(dlsym(lib, "__tvm_ffi_shout"));
    auto add_one = reinterpret_cast<TVMFFISafeCallType>(dlsym(lib, "__tvm_ffi_add_one"));
    TVMFFIAny int_arg = Arg(kTVMFFIInt);
    int_arg.v_int64 = 7;
    TVMFFIAny str_arg = Arg(kTVMFFISmallStr);
    str_arg.small_str_len = 3;
    std::memcpy(str_arg.v_bytes, "abc", 3);
    TVMFFIAny tensors[2] = {Arg(kTVMFFIDLTensorPtr), Arg(kTVMFFIDLTensorPtr)};
    tensors[0].v_ptr = &x;
    tensors[1].v_ptr = &y;
    TVMFFIAny result = Arg(kTVMFFINone);
    auto call = [&](TVMFFISafeCallType f, TVMFFIAny* args, int32_t n) {
      result = Arg(kTVMFFINone);
      if (f(nullptr, args, n, &result) != 0) std::abort();
    };
    std::printf("%s square %.1f\n", argv[k], NanosPerCall(calls, [&] { call(square, &int_arg, 1); }));
    std::printf("%s shout %.1f\n", argv[k], NanosPerCall(calls, [&] { call(shout, &str_arg, 1); }));
    std::printf("%s add_one %.1f\n", argv[k], NanosPerCall(calls, [&] { call(add_one, tensors, 2); }));
  }
  return 0;
}
