/*
 * tvm/ffi/extra/base64.h -- standard base64 (RFC 4648 alphabet, '=' padding) between bytes and
 * text, e.g. to embed binary blobs in JSON.
 */
#ifndef TVM_FFI_EXTRA_BASE64_H_
#define TVM_FFI_EXTRA_BASE64_H_

#include <tvm/ffi/error.h>
#include <tvm/ffi/string.h>

#include <cstdint>
#include <string>

namespace tvm {
namespace ffi {

namespace detail {
inline constexpr char kBase64Alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/*! \brief The 6-bit value of a base64 character, or -1 for any other character. */
inline int Base64Digit(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}
}  // namespace detail

/*!
 * \brief Encodes bytes as base64 text.
 * \param bytes The bytes to encode.
 * \return The text, four characters per three bytes, padded with '='.
 */
inline String Base64Encode(TVMFFIByteArray bytes) {
  const unsigned char* in = reinterpret_cast<const unsigned char*>(bytes.data);
  std::string out;
  out.reserve((bytes.size + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size; i += 3) {
    size_t left = bytes.size - i;
    uint32_t group = static_cast<uint32_t>(in[i]) << 16;
    if (left > 1) group |= static_cast<uint32_t>(in[i + 1]) << 8;
    if (left > 2) group |= static_cast<uint32_t>(in[i + 2]);
    out.push_back(detail::kBase64Alphabet[(group >> 18) & 63]);
    out.push_back(detail::kBase64Alphabet[(group >> 12) & 63]);
    out.push_back(left > 1 ? detail::kBase64Alphabet[(group >> 6) & 63] : '=');
    out.push_back(left > 2 ? detail::kBase64Alphabet[group & 63] : '=');
  }
  return String(out);
}

/*! \brief Encodes the content of `data` as base64 text. */
inline String Base64Encode(const Bytes& data) {
  return Base64Encode(TVMFFIByteArray{data.data(), data.size()});
}

/*!
 * \brief Decodes base64 text.
 * \param bytes The text: a multiple of four characters, '=' only as trailing padding.
 * \return The decoded bytes.
 * \throws ValueError when the text is not valid base64.
 */
inline Bytes Base64Decode(TVMFFIByteArray bytes) {
  const unsigned char* in = reinterpret_cast<const unsigned char*>(bytes.data);
  if (bytes.size % 4 != 0) {
    TVM_FFI_THROW(ValueError) << "invalid base64 encoding: length " << bytes.size
                              << " is not a multiple of 4";
  }
  std::string out;
  out.reserve(bytes.size / 4 * 3);
  // '=' may only pad the final group: "xxx=" or "xx==".
  size_t pad = 0;
  while (pad < 2 && pad < bytes.size && in[bytes.size - 1 - pad] == '=') ++pad;
  for (size_t i = 0; i < bytes.size; i += 4) {
    size_t group_pad = i + 4 == bytes.size ? pad : 0;
    uint32_t group = 0;
    for (size_t k = 0; k < 4; ++k) {
      int digit = k < 4 - group_pad ? detail::Base64Digit(in[i + k]) : 0;
      if (digit < 0) {
        TVM_FFI_THROW(ValueError) << "invalid base64 encoding: unexpected character at offset "
                                  << (i + k);
      }
      group = (group << 6) | static_cast<uint32_t>(digit);
    }
    out.push_back(static_cast<char>((group >> 16) & 0xFF));
    if (group_pad < 2) out.push_back(static_cast<char>((group >> 8) & 0xFF));
    if (group_pad < 1) out.push_back(static_cast<char>(group & 0xFF));
  }
  return Bytes(out);
}

/*! \brief Decodes the base64 text `data`; ValueError when it is not valid base64. */
inline Bytes Base64Decode(const String& data) {
  return Base64Decode(TVMFFIByteArray{data.data(), data.size()});
}

}  // namespace ffi
}  // namespace tvm

#endif  // TVM_FFI_EXTRA_BASE64_H_
