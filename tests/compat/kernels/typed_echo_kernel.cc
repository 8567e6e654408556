// One typed echo function per parameter type kernels commonly declare (scalars, strings, dtype,
// device, Optional, containers, Variant, Tuple, Shape, Tensor, functions, std:: types through
// extra/stl.h), plus views (TensorView, DLTensor*) and a two-parameter function. Each returns
// its argument, so a call shows both directions of the header's conversion: Python value ->
// parameter type (or the TypeError text) and the C++ value -> Python.
// Built against the reference's headers and against ours (tests/compat/test_header_grids.py).
#include <tvm/ffi/container/dict.h>
#include <tvm/ffi/container/list.h>
#include <tvm/ffi/container/shape.h>
#include <tvm/ffi/container/tensor.h>
#include <tvm/ffi/container/tuple.h>
#include <tvm/ffi/container/variant.h>
#include <tvm/ffi/extra/stl.h>
#include <tvm/ffi/tvm_ffi.h>

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <variant>
#include <vector>

namespace echo {
using namespace tvm::ffi;  // NOLINT(build/namespaces)

// A type alias per function: a template argument list holds commas a macro would split.
#define ECHO(name, ...)                                \
  using name##_t = __VA_ARGS__;                        \
  static name##_t name##_impl(name##_t x) { return x; } \
  TVM_FFI_DLL_EXPORT_TYPED_FUNC(name, echo::name##_impl);

ECHO(e_i64, int64_t)
ECHO(e_i32, int32_t)
ECHO(e_i8, int8_t)
ECHO(e_u64, uint64_t)
ECHO(e_u8, uint8_t)
ECHO(e_f64, double)
ECHO(e_f32, float)
ECHO(e_bool, bool)
ECHO(e_str, String)
ECHO(e_stdstr, std::string)
ECHO(e_bytes, Bytes)
ECHO(e_dtype, DLDataType)
ECHO(e_dev, DLDevice)
ECHO(e_opt_i, Optional<int64_t>)
ECHO(e_opt_s, Optional<String>)
ECHO(e_opt_ai, Optional<Array<int64_t>>)
ECHO(e_arr_i, Array<int64_t>)
ECHO(e_arr_any, Array<Any>)
ECHO(e_arr_s, Array<String>)
ECHO(e_arr_arr, Array<Array<int64_t>>)
ECHO(e_arr_f, Array<double>)
ECHO(e_arr_b, Array<bool>)
ECHO(e_list_i, List<int64_t>)
ECHO(e_map_si, Map<String, int64_t>)
ECHO(e_map_aa, Map<Any, Any>)
ECHO(e_dict_sa, Dict<String, Any>)
ECHO(e_var_is, Variant<int64_t, String>)
ECHO(e_var_sa, Variant<String, Array<int64_t>>)
ECHO(e_var_fi, Variant<double, int64_t>)
ECHO(e_tup, Tuple<int64_t, String>)
ECHO(e_shape, Shape)
ECHO(e_tensor, Tensor)
ECHO(e_func, Function)
ECHO(e_obj, ObjectRef)
ECHO(e_any, Any)
ECHO(e_vptr, void*)
ECHO(e_vec_i, std::vector<int64_t>)
ECHO(e_vec_s, std::vector<std::string>)
ECHO(e_stdopt_i, std::optional<int64_t>)
ECHO(e_stdmap, std::map<std::string, int64_t>)
ECHO(e_stdumap, std::unordered_map<int64_t, double>)
ECHO(e_stdtup, std::tuple<int64_t, std::string>)
ECHO(e_stdvar, std::variant<int64_t, std::string>)
ECHO(e_stdvec_vec, std::vector<std::vector<double>>)
ECHO(e_stdopt_vec, std::optional<std::vector<int64_t>>)
ECHO(e_typed, TypedFunction<int64_t(int64_t)>)

static int64_t TensorViewNdim(TensorView t) { return t.ndim(); }
static int64_t DLTensorNdim(DLTensor* t) { return t->ndim; }
static int64_t IntPlusLength(int64_t a, String b) { return a + static_cast<int64_t>(b.size()); }
static int64_t CallWithThree(TypedFunction<int64_t(int64_t)> f) { return f(3); }
}  // namespace echo

TVM_FFI_DLL_EXPORT_TYPED_FUNC(e_tview, echo::TensorViewNdim);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(e_dltensor, echo::DLTensorNdim);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(e_two, echo::IntPlusLength);
TVM_FFI_DLL_EXPORT_TYPED_FUNC(e_calltyped, echo::CallWithThree);
