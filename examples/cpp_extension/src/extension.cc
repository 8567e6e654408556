// extension.cc -- the C++ half of my_ffi_extension: global functions and a reflected object
// type, registered with the runtime when the library is loaded.
#include <tvm/ffi/reflection/registry.h>
#include <tvm/ffi/tvm_ffi.h>

namespace ffi = tvm::ffi;
namespace refl = tvm::ffi::reflection;

namespace my_ffi_extension {

/*! \brief A pair of integers, visible from Python as my_ffi_extension.IntPair. */
class IntPairObj : public ffi::Object {
 public:
  int64_t a = 0;
  int64_t b = 0;
  IntPairObj() = default;
  IntPairObj(int64_t a, int64_t b) : a(a), b(b) {}
  int64_t Sum() const { return a + b; }
  static constexpr bool _type_mutable = true;
  TVM_FFI_DECLARE_OBJECT_INFO_FINAL("my_ffi_extension.IntPair", IntPairObj, ffi::Object);
};

class IntPair : public ffi::ObjectRef {
 public:
  IntPair(int64_t a, int64_t b) : ffi::ObjectRef(ffi::make_object<IntPairObj>(a, b)) {}
  TVM_FFI_DEFINE_OBJECT_REF_METHODS_NOTNULLABLE(IntPair, ffi::ObjectRef, IntPairObj);
};

int64_t AddOne(int64_t x) { return x + 1; }

ffi::String Greet(const ffi::String& name) { return "hello, " + std::string(name); }

void RaiseError(const ffi::String& message) { TVM_FFI_THROW(ValueError) << message; }

IntPair Swap(const IntPair& pair) { return IntPair(pair->b, pair->a); }

}  // namespace my_ffi_extension

TVM_FFI_STATIC_INIT_BLOCK() {
  using namespace my_ffi_extension;
  refl::GlobalDef()
      .def("my_ffi_extension.add_one", AddOne, "Returns x + 1.")
      .def("my_ffi_extension.greet", Greet)
      .def("my_ffi_extension.raise_error", RaiseError)
      .def("my_ffi_extension.swap", Swap)
      .def("my_ffi_extension.make_pair", [](int64_t a, int64_t b) { return IntPair(a, b); })
      .def("my_ffi_extension.pair_sum", [](const IntPair& p) { return p->Sum(); });
  refl::ObjectDef<IntPairObj>()
      .def(refl::init<int64_t, int64_t>())
      .def_ro("a", &IntPairObj::a, "first item")
      .def_rw("b", &IntPairObj::b, "second item")
      .def("sum", &IntPairObj::Sum);
}
