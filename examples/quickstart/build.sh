#!/usr/bin/env bash
# Compiles add_one.c into build/add_one.so with the flags tvm-ffi-config prints.
# Needs the tvm_ffi package installed and a C11 compiler ($CC, default cc).
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p build
# The console script when it is on PATH, else the same tool run as a module.
if command -v tvm-ffi-config >/dev/null 2>&1; then
  CONFIG=(tvm-ffi-config)
else
  CONFIG=("${PYTHON:-python3}" -m tvm_ffi.config)
fi
# --cflags: include directories; --ldflags: -L of libtvm_ffi.so (no rpath: the kernel binds to
# the runtime `import tvm_ffi` has loaded); --libs: -ltvm_ffi.
"${CC:-cc}" -std=c11 -O2 -Wall -Wextra -fPIC -shared \
  $("${CONFIG[@]}" --cflags) add_one.c -o build/add_one.so \
  $("${CONFIG[@]}" --ldflags) $("${CONFIG[@]}" --libs)
echo "built build/add_one.so"
