/*
 * error_api.c -- TVMFFIErrorSetRaised: the entry point that checks its argument against the
 * type table before storing it (error.c, below the type table, stores it).
 */
#include "error_internal.h"
#include "object_internal.h"
#include "type_registry_internal.h"

void TVMFFIErrorSetRaised(TVMFFIObjectHandle error) {
  TVMFFIObject* obj = (TVMFFIObject*)error;
  if (obj != NULL && !ffi_type_is_instance(obj->type_index, kTVMFFIError)) {
    /* The caller is about to return -1: leave an error that says what went wrong instead of a
     * non-Error object every reader of the slot would misinterpret as an ErrorObject. */
    TVMFFIByteArray actual = ffi_type_key_of(obj->type_index);
    ffi_raise("TypeError", "TVMFFIErrorSetRaised expects an ffi.Error object, got `%.*s`",
              (int)actual.size, actual.data);
    return;
  }
  if (obj != NULL) ffi_incref(obj);
  ffi_error_set_raised_steal(obj);
}
