/*
 * error_class.cc -- emits tvm::ffi::Error's vtable and typeinfo in this library. The class is
 * header-only, so every binary that throws it carries weak copies; the reference's library
 * exports them too, and the dynamic loader binds every kernel loaded afterwards to this one
 * copy, so `catch (const tvm::ffi::Error&)` matches across libraries regardless of how the
 * C++ runtime compares typeinfo.
 */
#include <tvm/ffi/error.h>

#include <typeinfo>

namespace tvm {
namespace ffi {
namespace cxx_abi {

// Out-of-line uses that make the compiler emit the vtable (constructor) and typeinfo (typeid).
const std::type_info& ErrorTypeInfo() { return typeid(Error); }
Error MakeError(const char* kind, const char* message) { return Error(kind, message, ""); }

}  // namespace cxx_abi
}  // namespace ffi
}  // namespace tvm
