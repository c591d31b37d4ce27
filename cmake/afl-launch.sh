#!/bin/sh
# afl-launch.sh AFL_CC COMPILER ARGS... - the compiler (and linker) launcher
# of mcpcheck-afl-driver: runs AFL_CC with the arguments CMake meant for
# COMPILER. Classic instrumentation gives the driver a map of the runtime's
# fixed size (pcguard would size it to the driver's few edges), onto which
# the driver folds the server's coverage.
aflcc=$1
shift 2
AFL_LLVM_INSTRUMENT=CLASSIC AFL_QUIET=1 exec "$aflcc" "$@"
