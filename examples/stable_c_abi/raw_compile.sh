#!/usr/bin/env bash
# Builds the add_one_cpu kernel and the C loader with plain compiler commands, then runs the
# loader. Needs the tvm_ffi package installed (for tvm-ffi-config) and a C11 compiler.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p build
CC="${CC:-cc}"
# Falls back to the module form when the console script is not on PATH.
if command -v tvm-ffi-config >/dev/null 2>&1; then
  CONFIG=(tvm-ffi-config)
else
  CONFIG=("${PYTHON:-python3}" -m tvm_ffi.config)
fi

# [kernel.begin]
"$CC" -std=c11 -O2 -Wall -Wextra -fPIC -shared \
  $("${CONFIG[@]}" --cflags) \
  src/add_one_cpu.c -o build/add_one_cpu.so \
  $("${CONFIG[@]}" --ldflags) $("${CONFIG[@]}" --libs)
# [kernel.end]

# [load.begin]
"$CC" -std=c11 -O2 -Wall -Wextra \
  $("${CONFIG[@]}" --cflags) \
  src/load.c -o build/load \
  $("${CONFIG[@]}" --ldflags) $("${CONFIG[@]}" --rpath) $("${CONFIG[@]}" --libs) -ldl
build/load build/add_one_cpu.so
# [load.end]
