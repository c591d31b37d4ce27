#!/bin/bash -eu
# fuzz/build.sh - build every fuzz target the OSS-Fuzz / ClusterFuzzLite way.
#
# Contract (https://google.github.io/oss-fuzz/getting-started/new-project-guide/):
#   $CC, $CFLAGS            compiler and flags (sanitizer + coverage flags included)
#   $LIB_FUZZING_ENGINE     what to link for the engine (-fsanitize=fuzzer for
#                           libFuzzer; the AFL++ driver under CC=afl-clang-fast)
#   $SRC                    where the sources are ($SRC/mcpcheck)
#   $OUT                    where <target>, <target>.dict, <target>.options and
#                           <target>_seed_corpus.zip go
# Optional: JSONC_CFLAGS / JSONC_LIBS (default: pkg-config --static json-c),
# MC_SRC (default: the repository this script lives in).
#
# Every target is plain C and links only $LIB_FUZZING_ENGINE, so the same
# script builds libFuzzer, AFL++ and honggfuzz binaries. The MCP schemas the
# oracle needs are copied to $OUT/schemas (the targets look there, next to
# themselves, before the compiled-in source path).
#
# Local use (libFuzzer, ASan+UBSan):
#   CC=clang CFLAGS="-O1 -g -fsanitize=address,undefined -fsanitize=fuzzer-no-link" \
#   LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out fuzz/build.sh
# Local use (AFL++):
#   CC=afl-clang-fast CFLAGS="-O1 -g" LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT=/tmp/out-afl fuzz/build.sh

MC_SRC="${MC_SRC:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${CC:=clang}"
: "${CFLAGS:=}"
: "${LIB_FUZZING_ENGINE:=-fsanitize=fuzzer}"
: "${OUT:?OUT must name the output folder}"
mkdir -p "$OUT"

if [[ -z ${JSONC_CFLAGS+x} ]]; then
  JSONC_CFLAGS="$(pkg-config --cflags json-c)"
fi
if [[ -z ${JSONC_LIBS+x} ]]; then
  JSONC_LIBS="$(pkg-config --static --libs json-c 2>/dev/null || pkg-config --libs json-c)"
fi

# The one list of targets lives in fuzz/targets.cmake; read it from there so
# the two cannot drift.
targets=$(sed -n '/^set(MC_FUZZ_TARGETS/,/)/p' "$MC_SRC/fuzz/targets.cmake" |
          tr -d '()' | tr -s ' \n' '\n' | grep -v -e '^set$' -e '^MC_FUZZ_TARGETS$' -e '^$')
uses_mutator() { grep -q "set(MC_FUZZ_MUTATOR_$1 ON)" "$MC_SRC/fuzz/targets.cmake"; }
# The further files of a target (its MC_FUZZ_PARTS_<NAME> line), if any.
parts_of() { sed -n "s/^set(MC_FUZZ_PARTS_$1 \(.*\))\$/\1/p" "$MC_SRC/fuzz/targets.cmake"; }

WORK="${WORK:-$(mktemp -d)}"
OBJ="$WORK/mcpcheck-obj"
mkdir -p "$OBJ"

COMMON_FLAGS=(-std=c11 -D_XOPEN_SOURCE=700 -DMC_VERSION=\"fuzz\" -I"$MC_SRC/harness"
              -I"$MC_SRC/fuzz")
# shellcheck disable=SC2206
EXTRA=($CFLAGS $JSONC_CFLAGS)

# The project libraries, compiled once with the engine's flags.
lib_objs=()
for layer in core schema judge client refserver scenario; do
  for src in "$MC_SRC/harness/$layer"/*.c; do
    # Programs (a main.c, benchmarks) are not part of the libraries.
    [[ $(basename "$src") == main.c || $(basename "$src") == bench*.c ]] && continue
    grep -qE '^int[[:space:]]+main[[:space:]]*\(' "$src" && continue
    obj="$OBJ/${layer}_$(basename "$src" .c).o"
    "$CC" "${COMMON_FLAGS[@]}" "${EXTRA[@]}" -c "$src" -o "$obj"
    lib_objs+=("$obj")
  done
done
ar rcs "$OBJ/libmcpcheck.a" "${lib_objs[@]}"

for f in common schema_check; do
  "$CC" "${COMMON_FLAGS[@]}" "${EXTRA[@]}" \
    -DMC_FUZZ_SCHEMAS_DIR=\"$MC_SRC/harness/schemas\" -c "$MC_SRC/fuzz/$f.c" -o "$OBJ/fuzz_$f.o"
done
# The mutator (engine machinery, linked into the JSON targets).
mutator_objs=()
for f in mutator mutator_ops mutator_values; do
  "$CC" "${COMMON_FLAGS[@]}" "${EXTRA[@]}" -DMC_FUZZ_LIBFUZZER_MUTATOR=1 \
    -c "$MC_SRC/fuzz/$f.c" -o "$OBJ/fuzz_$f.o"
  mutator_objs+=("$OBJ/fuzz_$f.o")
done

built=0
for t in $targets; do
  src="$MC_SRC/fuzz/${t}_fuzzer.c"
  [[ -f $src ]] || continue
  objs=("$OBJ/fuzz_common.o" "$OBJ/fuzz_schema_check.o")
  defs=()
  if uses_mutator "$t"; then
    objs+=("${mutator_objs[@]}")
    defs+=(-DMC_FUZZ_LIBFUZZER_MUTATOR=1)
  fi
  # $CXX links when set (libFuzzer is C++); plain $CC otherwise.
  "$CC" "${COMMON_FLAGS[@]}" "${EXTRA[@]}" "${defs[@]}" -c "$src" -o "$OBJ/${t}_fuzzer.o"
  for part in $(parts_of "$t"); do
    "$CC" "${COMMON_FLAGS[@]}" "${EXTRA[@]}" -c "$MC_SRC/fuzz/$part.c" -o "$OBJ/${part}.o"
    objs+=("$OBJ/${part}.o")
  done
  # shellcheck disable=SC2086
  ${CXX:-$CC} ${CXXFLAGS:-$CFLAGS} "$OBJ/${t}_fuzzer.o" "${objs[@]}" "$OBJ/libmcpcheck.a" \
    $LIB_FUZZING_ENGINE $JSONC_LIBS -lm -pthread -o "$OUT/${t}_fuzzer"

  if [[ -f $MC_SRC/fuzz/${t}_fuzzer.dict ]]; then
    cp "$MC_SRC/fuzz/${t}_fuzzer.dict" "$OUT/${t}_fuzzer.dict"
  else
    cp "$MC_SRC/corpus/mcp.dict" "$OUT/${t}_fuzzer.dict"
  fi
  [[ -f $MC_SRC/fuzz/${t}_fuzzer.options ]] && cp "$MC_SRC/fuzz/${t}_fuzzer.options" "$OUT/"
  # Seeds and regressions (not READMEs, traces, or inputs of open bugs).
  rm -f "$OUT/${t}_fuzzer_seed_corpus.zip"
  seeds=()
  for d in "$MC_SRC/corpus/$t" "$MC_SRC/corpus/regressions/$t"; do
    [[ -d $d ]] || continue
    for f in "$d"/*; do
      case "$(basename "$f")" in README.md|*.jsonl|*.jsonc) continue ;; esac
      if grep -q "^$(basename "$d")/$(basename "$f") " "$MC_SRC/corpus/regressions/DISABLED" \
           2>/dev/null; then
        continue
      fi
      seeds+=("$f")
    done
  done
  if ((${#seeds[@]})); then
    zip -q -j "$OUT/${t}_fuzzer_seed_corpus.zip" "${seeds[@]}"
  fi
  built=$((built + 1))
done

mkdir -p "$OUT/schemas"
cp "$MC_SRC"/harness/schemas/*.json "$OUT/schemas/"
echo "build.sh: $built fuzz targets in $OUT"
