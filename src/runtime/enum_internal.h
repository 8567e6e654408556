/*
 * enum_internal.h -- the enum object types (enum.c) as the structural services see them:
 * an enum member prints, serialises and deep-copies as the singleton it names.
 */
#ifndef TVM_FFI_RUNTIME_ENUM_INTERNAL_H_
#define TVM_FFI_RUNTIME_ENUM_INTERNAL_H_

#include "internal.h"

/* Registers ffi.EnumState, ffi.Enum, ffi.IntEnum and ffi.StrEnum (fields, metadata, attrs). */
void ffi_register_enum_types(void);

/* True when type_index is ffi.Enum or derives from it. */
bool ffi_enum_is_enum_type(int32_t type_index);

/* The member's canonical string index (a view into the object). */
TVMFFIByteArray ffi_enum_str_index(TVMFFIObject* member);

/* The JSON graph payload of a member: its int index for IntEnum types, else its str index
 * (owned). */
int ffi_enum_json_data(TVMFFIObject* member, TVMFFIAny* out);

/* The registered member of enum type `type_index` whose canonical index (int for IntEnum
 * types, str otherwise) is `data`; TypeError for the wrong kind of index, ValueError when no
 * member has it. */
int ffi_enum_from_json_data(int32_t type_index, const TVMFFIAny* data, TVMFFIAny* out);

#endif /* TVM_FFI_RUNTIME_ENUM_INTERNAL_H_ */
