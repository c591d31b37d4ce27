#!/bin/sh
# afl-launch-server.sh AFL_CC COMPILER ARGS... - the compiler (and linker)
# launcher of mc-refserver-afl, the instrumented reference server of the
# test campaign/afl: runs AFL_CC with the arguments CMake meant for
# COMPILER, with AFL++'s default instrumentation (the map size the server
# is given in AFL_MAP_SIZE).
aflcc=$1
shift 2
AFL_QUIET=1 exec "$aflcc" "$@"
