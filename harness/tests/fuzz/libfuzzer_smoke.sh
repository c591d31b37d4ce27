#!/bin/sh
# libfuzzer_smoke.sh - the CI fuzz smoke run: build the libFuzzer targets
# (preset `fuzz`: clang, ASan+UBSan, into build-fuzz/) and run each one for a
# few seconds on its seeds, then replay its regression inputs. Any crash,
# leak or oracle abort fails the test, and so does a fuzz preset that does not
# configure (scripts/setup.sh installs clang and its fuzzer runtime).
# Usage: libfuzzer_smoke.sh REPO_ROOT [SECONDS]
set -u
root=${1:?usage: libfuzzer_smoke.sh REPO_ROOT [SECONDS]}
secs=${2:-5}
cd "$root" || exit 2
jobs=$(nproc 2>/dev/null || echo 2)

# ccache, when installed, as scripts/setup.sh uses it (MCPCHECK_NO_CCACHE=1
# leaves it out): a CI run on a machine that ran before rebuilds little.
launcher=""
if command -v ccache >/dev/null 2>&1 && [ -z "${MCPCHECK_NO_CCACHE:-}" ]; then
  CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(pwd)}; export CCACHE_BASEDIR
  launcher="-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
fi
if [ ! -f build-fuzz/CMakeCache.txt ]; then
  # shellcheck disable=SC2086 # $launcher is two words or none
  cmake --preset fuzz $launcher >build-fuzz-configure.log 2>&1 || {
    cat build-fuzz-configure.log; rm -f build-fuzz-configure.log
    echo "libfuzzer_smoke: FAIL: the fuzz preset does not configure here"; exit 1; }
  rm -f build-fuzz-configure.log
fi
if ! cmake --build build-fuzz -j "$jobs" --target fuzzers >build-fuzz/smoke-build.log 2>&1; then
  tail -40 build-fuzz/smoke-build.log
  echo "libfuzzer_smoke: FAIL: the fuzz targets do not build (build-fuzz/smoke-build.log)"
  exit 1
fi

# Open bugs (DISABLED) are kept out of the run; see corpus/regressions/DISABLED.
disabled=$(grep -v '^#' corpus/regressions/DISABLED 2>/dev/null | awk 'NF {print $1}')
work=$(mktemp -d "${TMPDIR:-/tmp}/mcpcheck-fuzz-smoke.XXXXXX")
trap 'rm -rf "$work"' EXIT
status=0
for src in fuzz/*_fuzzer.c; do
  t=$(basename "$src" _fuzzer.c)
  bin=build-fuzz/fuzz-bin/${t}_fuzzer
  [ -x "$bin" ] || continue
  mkdir -p "$work/$t/corpus" "$work/$t/art"
  for d in corpus/$t corpus/regressions/$t; do
    [ -d "$d" ] || continue
    for f in "$d"/*; do
      [ -f "$f" ] || continue
      case "$f" in */README.md|*.jsonl|*.jsonc) continue ;; esac
      key="$(basename "$d")/$(basename "$f")"
      if printf '%s\n' "$disabled" | grep -qxF "$key"; then continue; fi
      cp "$f" "$work/$t/corpus/"
    done
  done
  dict=corpus/mcp.dict
  [ -f "fuzz/${t}_fuzzer.dict" ] && dict=fuzz/${t}_fuzzer.dict
  # Fork mode goes on past a crash, so an open bug (DISABLED) found again
  # does not hide a new one; each finding is classified afterwards.
  ASAN_OPTIONS=detect_leaks=1 "$bin" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 \
    -ignore_ooms=1 -max_total_time="$secs" -timeout=20 -max_len=8192 -dict="$dict" \
    -artifact_prefix="$work/$t/art/" "$work/$t/corpus" >"$work/$t/log" 2>&1
  execs=$(awk '/^#[0-9]+: cov:/{sub(/^#/,"",$1); sub(/:$/,"",$1); n=$1} END{print n+0}' "$work/$t/log")
  arts=$(find "$work/$t/art" -type f | sort)
  if [ "$execs" -eq 0 ] && ! grep -q "INITED\|cov:" "$work/$t/log"; then
    echo "libfuzzer_smoke: FAIL $t (did not run)"; tail -20 "$work/$t/log"; status=1
  elif [ -z "$arts" ]; then
    echo "libfuzzer_smoke: ok   $t ($execs execs in ${secs}s)"
  elif command -v python3 >/dev/null &&
       python3 fuzz/triage.py classify --target "$t" --repro "$bin" --root "$root" $arts \
         >"$work/$t/classify" 2>&1; then
    echo "libfuzzer_smoke: ok   $t ($execs execs; only known open bugs found again:)"
    sed 's/^/  /' "$work/$t/classify"
  else
    echo "libfuzzer_smoke: FAIL $t"
    cat "$work/$t/classify" 2>/dev/null
    mkdir -p build-fuzz/smoke-artifacts
    for a in $arts; do
      cp "$a" build-fuzz/smoke-artifacts/"$t"-"$(basename "$a")"
      echo "  input kept: build-fuzz/smoke-artifacts/$t-$(basename "$a")"
    done
    status=1
  fi
done
exit $status
