#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz entry point: build json-c statically with the
# engine's flags, then let fuzz/build.sh build every target into $OUT.
JSONC_PREFIX="$WORK/json-c-install"
cmake -S "$SRC/json-c" -B "$WORK/json-c-build" \
  -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DBUILD_STATIC_LIBS=ON \
  -DBUILD_TESTING=OFF -DDISABLE_WERROR=ON -DCMAKE_C_COMPILER="$CC" \
  -DCMAKE_C_FLAGS="$CFLAGS" -DCMAKE_INSTALL_PREFIX="$JSONC_PREFIX"
cmake --build "$WORK/json-c-build" -j "$(nproc)"
cmake --install "$WORK/json-c-build"
libdir="$JSONC_PREFIX/lib"
[[ -d $libdir ]] || libdir="$JSONC_PREFIX/lib64"
export JSONC_CFLAGS="-I$JSONC_PREFIX/include -I$JSONC_PREFIX/include/json-c"
export JSONC_LIBS="$libdir/libjson-c.a"
MC_SRC="$SRC/mcpcheck" "$SRC/mcpcheck/fuzz/build.sh"
