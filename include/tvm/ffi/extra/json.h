/*
 * tvm/ffi/extra/json.h -- JSON text <-> Any: objects become Map<Any, Any>, arrays
 * Array<Any>, numbers int64_t or double, plus Infinity/NaN as in JavaScript.
 */
#ifndef TVM_FFI_EXTRA_JSON_H_
#define TVM_FFI_EXTRA_JSON_H_

#include <tvm/ffi/any.h>
#include <tvm/ffi/container/array.h>
#include <tvm/ffi/container/map.h>
#include <tvm/ffi/extra/base.h>
#include <tvm/ffi/optional.h>
#include <tvm/ffi/string.h>

namespace tvm {
namespace ffi {
namespace json {

/*! \brief A JSON value: None, bool, int64_t, double, String, json::Array or json::Object. */
using Value = Any;
/*! \brief A JSON object. */
using Object = ffi::Map<Any, Any>;
/*! \brief A JSON array. */
using Array = ffi::Array<Any>;

/*!
 * \brief Parses JSON text.
 * \param json_str The text.
 * \param error_msg Where to write the error message instead of throwing; may be nullptr
 *        (then a parse error throws ValueError).
 * \return The value; None after an error reported through error_msg.
 */
TVM_FFI_EXTRA_CXX_API json::Value Parse(const String& json_str, String* error_msg = nullptr);

/*!
 * \brief Writes a value as JSON text.
 * \param value The value.
 * \param indent Spaces per nesting level; none gives the compact form.
 * \return The text.
 */
TVM_FFI_EXTRA_CXX_API String Stringify(const json::Value& value,
                                       const Optional<int>& indent = std::nullopt);

}  // namespace json
}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_JSON_H_
