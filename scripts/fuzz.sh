#!/usr/bin/env bash
# fuzz.sh - build the fuzz targets, run a time-bounded campaign, minimize the
# corpus, triage the findings and write a report.
#
# This fuzzes mcpcheck itself (its reference server, client session, decoders,
# schema validator and scenario loader, in process with sanitizers): it is for
# the project's developers. To fuzz YOUR MCP server, use `mcpcheck fuzz --
# ./your-server` (docs/fuzzing.md), which drives any server over stdio or
# Streamable HTTP and writes replayable scenarios.
#
# Usage: scripts/fuzz.sh [--engine libfuzzer|afl] [--seconds N] [--jobs N]
#                        [--no-build] [TARGET...]
#        scripts/fuzz.sh --record-seeds      re-record corpus/<target>/ seeds
#        scripts/fuzz.sh --list              list the targets
#
# TARGET is a fuzz target name (refserver_session, client_session, ...; see
# --list), default all. With --engine afl the pseudo-target refserver_stdio is
# also available: the AFL++-instrumented mcpcheck-refserver fuzzed as a whole
# process over stdin (in the default set for afl).
#
# A campaign runs in build-fuzz/campaigns/<UTC time>/ (build-afl/... for afl):
#   corpus/<t>      working corpus (seeds + regressions + what the run found)
#   corpus-min/<t>  the corpus minimized (libFuzzer -merge=1 / afl-cmin)
#   artifacts/<t>   raw findings; triage/<t>/ sanitizer logs
#   stats.tsv, findings.jsonl, report.md
# Each distinct finding (deduplicated by sanitizer/oracle signature, then
# minimized with -minimize_crash / afl-tmin) is copied to
# corpus/regressions/<t>/<sha256>; session targets also get <sha256>.jsonl, a
# one-message-per-line trace for `mcpcheck run` to replay once scenarios can
# hold traces, and findings against the reference server <sha256>.jsonc, a
# scenario replaying them (copy it under scenarios/ for `mcpcheck run`).
# exec/s per target is printed at the end.
#
# Engines: libFuzzer (preset `fuzz`: clang, ASan+UBSan; fork mode, -fork=N
# for --jobs N, going on past findings) or AFL++ (presets `afl` and `cmplog`:
# one -M main instance and --jobs-1 -S secondaries, the first of them with
# the CMPLOG binary; the structure-aware mutator as
# AFL_CUSTOM_MUTATOR_LIBRARY for JSON targets).
# Exit status: 0 when the campaign ran (findings or not), 1 on a build or
# usage error, 2 when a requested target does not exist.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

ENGINE=libfuzzer
SECS=60
JOBS=1
BUILD=1
RECORD=0
LIST=0
TARGETS=()

say() { printf 'fuzz.sh: %s\n' "$*"; }
die() { printf 'fuzz.sh: error: %s\n' "$*" >&2; exit 1; }

while (($#)); do
  case "$1" in
    --engine) ENGINE="${2:-}"; shift 2 ;;
    --engine=*) ENGINE="${1#*=}"; shift ;;
    --seconds) SECS="${2:-}"; shift 2 ;;
    --seconds=*) SECS="${1#*=}"; shift ;;
    --jobs) JOBS="${2:-}"; shift 2 ;;
    --jobs=*) JOBS="${1#*=}"; shift ;;
    --no-build) BUILD=0; shift ;;
    --record-seeds) RECORD=1; shift ;;
    --list) LIST=1; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) die "unknown option $1 (see --help)" ;;
    *) TARGETS+=("$1"); shift ;;
  esac
done
[[ $ENGINE == libfuzzer || $ENGINE == afl ]] || die "--engine must be libfuzzer or afl"
[[ $SECS =~ ^[0-9]+$ && $SECS -gt 0 ]] || die "--seconds wants a positive integer"
[[ $JOBS =~ ^[0-9]+$ && $JOBS -gt 0 ]] || die "--jobs wants a positive integer"

# Every fuzz/<name>_fuzzer.c is a target.
ALL=()
for f in fuzz/*_fuzzer.c; do
  n="$(basename "$f" _fuzzer.c)"
  ALL+=("$n")
done
if ((LIST)); then
  printf '%s\n' "${ALL[@]}" refserver_stdio
  exit 0
fi
if ((${#TARGETS[@]} == 0)); then
  TARGETS=("${ALL[@]}")
  [[ $ENGINE == afl ]] && TARGETS+=(refserver_stdio)
fi
for t in "${TARGETS[@]}"; do
  if [[ $t == refserver_stdio ]]; then
    [[ $ENGINE == afl ]] || { echo "fuzz.sh: refserver_stdio needs --engine afl" >&2; exit 2; }
    continue
  fi
  [[ -f fuzz/${t}_fuzzer.c ]] || { echo "fuzz.sh: no such target: $t (see --list)" >&2; exit 2; }
done

BUILD_JOBS="$(nproc 2>/dev/null || echo 2)"

build_preset() { # preset dir target...
  local preset="$1" dir="$2"
  shift 2
  if [[ ! -f $dir/CMakeCache.txt ]]; then
    say "configuring preset '$preset' in $dir/"
    cmake --preset "$preset" >/dev/null
  fi
  say "building $* in $dir/"
  if ! cmake --build --preset "$preset" -j "$BUILD_JOBS" --target "$@" >"$dir/fuzz-build.log" 2>&1; then
    tail -40 "$dir/fuzz-build.log" >&2
    die "build failed (full log: $dir/fuzz-build.log)"
  fi
}

# [libfuzzer] options of a target as -key=value flags.
libfuzzer_opts() {
  local f="fuzz/$1_fuzzer.options"
  [[ -f $f ]] || return 0
  awk '/^\[/{s=($0=="[libfuzzer]")} s && /=/{gsub(/[ \t]/,""); print "-"$0}' "$f"
}

dict_for() {
  if [[ -f fuzz/$1_fuzzer.dict ]]; then echo "fuzz/$1_fuzzer.dict"; else echo "corpus/mcp.dict"; fi
}

uses_mutator() {
  grep -q "set(MC_FUZZ_MUTATOR_$1 ON)" fuzz/targets.cmake
}

# Inputs of open bugs (corpus/regressions/DISABLED) stay out of campaigns:
# they would stop every run at the same place.
declare -A DISABLED=()
if [[ -f corpus/regressions/DISABLED ]]; then
  while read -r key _; do
    [[ -z $key || $key == \#* ]] || DISABLED[$key]=1
  done <corpus/regressions/DISABLED
fi

# Copies seed files (not READMEs, traces or disabled inputs) from the given
# folders into dest.
seed_into() {
  local dest="$1"
  shift
  mkdir -p "$dest"
  local d f
  for d in "$@"; do
    [[ -d $d ]] || continue
    for f in "$d"/*; do
      [[ -f $f ]] || continue
      case "$(basename "$f")" in README.md|DISABLED|*.jsonl|*.jsonc|.*) continue ;; esac
      [[ -n ${DISABLED["$(basename "$d")/$(basename "$f")"]:-} ]] && continue
      cp "$f" "$dest/"
    done
  done
}

count_files() { find "$1" -maxdepth 1 -type f 2>/dev/null | wc -l | tr -d ' '; }

# ASan settings for campaigns: leaks on, cheaper allocations (no malloc
# fill, a small quarantine, short allocation stacks). Triage replays every
# finding with the full defaults. Set ASAN_OPTIONS to override.
CAMPAIGN_ASAN="${ASAN_OPTIONS:-detect_leaks=1:malloc_context_size=2:quarantine_size_mb=16:max_malloc_fill_size=0}"

# ---- --record-seeds ----------------------------------------------------------
if ((RECORD)); then
  command -v python3 >/dev/null || die "python3 is needed to record seeds"
  say "building mcpcheck-refserver (build-fuzzdev/) and the libFuzzer targets"
  if [[ ! -f build-fuzzdev/CMakeCache.txt ]]; then
    cmake -S . -B build-fuzzdev -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF >/dev/null
  fi
  cmake --build build-fuzzdev -j "$BUILD_JOBS" --target mcpcheck-refserver >/dev/null
  build_preset fuzz build-fuzz fuzzers
  rec="$(mktemp -d "$ROOT/build-fuzz/record.XXXXXX")"
  python3 fuzz/record_seeds.py --server build-fuzzdev/bin/mcpcheck-refserver --out "$rec" \
    --schemas harness/schemas
  for t in "${ALL[@]}"; do
    [[ -d $rec/$t ]] || continue
    bin="build-fuzz/fuzz-bin/${t}_fuzzer"
    [[ -x $bin ]] || continue
    old="$rec/old-$t"
    seed_into "$old" "corpus/$t"
    merged="$rec/merged-$t"
    mkdir -p "$merged"
    # Keep only recordings that add coverage (-merge=1), then name by SHA-256.
    ASAN_OPTIONS="$CAMPAIGN_ASAN" "$bin" -merge=1 $(libfuzzer_opts "$t") "$merged" "$old" \
      "$rec/$t" >"$rec/merge-$t.log" 2>&1 || die "merge failed for $t (see $rec/merge-$t.log)"
    mkdir -p "corpus/$t"
    find "corpus/$t" -maxdepth 1 -type f ! -name README.md -delete
    for f in "$merged"/*; do
      [[ -f $f ]] || continue
      cp "$f" "corpus/$t/$(sha256sum "$f" | cut -c1-64)"
    done
    say "$t: $(count_files "$rec/$t") recorded, $(find "corpus/$t" -maxdepth 1 -type f ! -name README.md | wc -l | tr -d " ") seeds kept"
  done
  rm -rf "$rec"
  exit 0
fi

# ---- campaign ----------------------------------------------------------------
STAMP="$(date -u +%Y%m%dT%H%M%SZ)"
if [[ $ENGINE == libfuzzer ]]; then
  ((BUILD)) && build_preset fuzz build-fuzz fuzzers
  RUN="$ROOT/build-fuzz/campaigns/$STAMP"
else
  command -v afl-fuzz >/dev/null || die "afl-fuzz is not installed (scripts/setup.sh installs afl++)"
  if ((BUILD)); then
    build_preset afl build-afl fuzzers
    build_preset cmplog build-cmplog fuzzers
  fi
  RUN="$ROOT/build-afl/campaigns/$STAMP"
  export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 \
    AFL_NO_AFFINITY=1 AFL_QUIET=1
fi
mkdir -p "$RUN"
printf 'target\tengine\tseconds\tjobs\texecs\texec/s\tcorpus in\tcorpus after merge\tfindings\n' \
  >"$RUN/stats.tsv"
say "campaign: $ENGINE, ${SECS}s per target, $JOBS job(s), in ${RUN#"$ROOT"/}"

declare -A EPS=()

run_libfuzzer() {
  local t="$1" bin="build-fuzz/fuzz-bin/$1_fuzzer"
  if [[ ! -x $bin ]]; then say "$t: not built, skipped"; return; fi
  local corpus="$RUN/corpus/$t" art="$RUN/artifacts/$t" logs="$RUN/logs/$t" min="$RUN/corpus-min/$t"
  mkdir -p "$art" "$logs" "$min"
  seed_into "$corpus" "corpus/$t" "corpus/regressions/$t"
  local n_in; n_in="$(count_files "$corpus")"
  local -a opts
  local f
  mapfile -t opts < <(libfuzzer_opts "$t")
  say "$t: fuzzing for ${SECS}s"
  # Fork mode keeps the campaign going past a finding (-ignore_*); -fork=N
  # runs N workers.
  (cd "$logs" && ASAN_OPTIONS="$CAMPAIGN_ASAN" "$ROOT/$bin" -fork="$JOBS" -ignore_crashes=1 \
     -ignore_timeouts=1 -ignore_ooms=1 -max_total_time="$SECS" \
     -dict="$ROOT/$(dict_for "$t")" "${opts[@]}" -artifact_prefix="$art/" "$corpus" \
     >run.log 2>&1) || true
  # The last status line: "#EXECS: cov: .. exec/s N .. time: Ts ..".
  local execs=0 eps=0 secs
  execs="$(awk '/^#[0-9]+: cov:/{sub(/^#/,"",$1); sub(/:$/,"",$1); n=$1} END{print n+0}' \
    "$logs/run.log")"
  secs="$(awk '/^#[0-9]+: cov:/{for(i=1;i<=NF;i++) if($i=="time:") t=$(i+1)} END{sub(/s$/,"",t); print t+0}' \
    "$logs/run.log")"
  ((secs > 0)) && eps=$((execs / secs))
  ASAN_OPTIONS="$CAMPAIGN_ASAN" "$bin" -merge=1 "${opts[@]}" "$min" "$corpus" \
    >"$logs/merge.log" 2>&1 || say "$t: merge failed (see ${logs#"$ROOT"/}/merge.log)"
  local -a found=()
  for f in "$art"/crash-* "$art"/leak-* "$art"/timeout-* "$art"/oom-*; do
    [[ -f $f ]] && found+=("$f")
  done
  if ((${#found[@]})); then
    say "$t: triaging ${#found[@]} finding(s)"
    python3 fuzz/triage.py findings --target "$t" --repro "$ROOT/$bin" --run-dir "$RUN" \
      --root "$ROOT" "${found[@]}" || say "$t: triage failed"
  fi
  printf '%s\tlibfuzzer\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$SECS" "$JOBS" "$execs" "$eps" \
    "$n_in" "$(count_files "$min")" "${#found[@]}" >>"$RUN/stats.tsv"
  EPS[$t]="$eps exec/s ($execs execs, ${#found[@]} raw findings)"
}

run_afl() {
  local t="$1" bin cmplog seeds dict
  local -a args=()
  if [[ $t == refserver_stdio ]]; then
    bin="build-afl/bin/mcpcheck-refserver"
    cmplog="build-cmplog/bin/mcpcheck-refserver"
    args=(--step-delay 0)
    seeds="corpus/refserver_session"
    dict="corpus/mcp.dict"
  else
    bin="build-afl/fuzz-bin/${t}_fuzzer"
    cmplog="build-cmplog/fuzz-bin/${t}_fuzzer"
    seeds="corpus/$t"
    dict="$(dict_for "$t")"
  fi
  if [[ ! -x $bin ]]; then say "$t: not built, skipped"; return; fi
  local in="$RUN/in/$t" out="$RUN/out/$t" min="$RUN/corpus-min/$t" logs="$RUN/logs/$t"
  mkdir -p "$logs" "$min" "$RUN/out"
  seed_into "$in" "$seeds" "corpus/regressions/$t"
  # afl-fuzz refuses seeds over 1 MiB and wants at least one file.
  find "$in" -type f -size +1024k -delete
  [[ -n $(ls -A "$in") ]] || printf '{}\n' >"$in/empty.json"
  local n_in; n_in="$(count_files "$in")"
  local -a menv=()
  if [[ $t == refserver_stdio ]] || uses_mutator "$t"; then
    [[ -f build-afl/fuzz-bin/mcp_mutator.so ]] &&
      menv=(AFL_CUSTOM_MUTATOR_LIBRARY="$ROOT/build-afl/fuzz-bin/mcp_mutator.so")
  fi
  local timeout_ms=1000
  say "$t: fuzzing for ${SECS}s with afl-fuzz ($JOBS instance(s))"
  local -a pids=()
  env "${menv[@]}" afl-fuzz -M main -i "$in" -o "$out" -x "$dict" -t "$timeout_ms" -V "$SECS" \
    -- "$ROOT/$bin" "${args[@]}" >"$logs/main.log" 2>&1 &
  pids+=($!)
  local i
  for ((i = 1; i < JOBS; i++)); do
    local -a cm=()
    ((i == 1)) && [[ -x $cmplog ]] && cm=(-c "$ROOT/$cmplog")
    env "${menv[@]}" afl-fuzz -S "sec$i" "${cm[@]}" -i "$in" -o "$out" -x "$dict" \
      -t "$timeout_ms" -V "$SECS" -- "$ROOT/$bin" "${args[@]}" >"$logs/sec$i.log" 2>&1 &
    pids+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || true; done
  local execs=0 eps=0 st
  for st in "$out"/*/fuzzer_stats; do
    [[ -f $st ]] || continue
    local e s
    e="$(awk '/^execs_done/{print $NF}' "$st")"
    s="$(awk '/^execs_per_sec/{printf "%d", $NF}' "$st")"
    execs=$((execs + ${e:-0}))
    eps=$((eps + ${s:-0}))
  done
  if [[ -d $out/main/queue ]]; then
    timeout 300 afl-cmin -i "$out/main/queue" -o "$min.cmin" -t "$timeout_ms" -- "$ROOT/$bin" \
      "${args[@]}" >"$logs/cmin.log" 2>&1 && { rmdir "$min" && mv "$min.cmin" "$min"; } ||
      say "$t: afl-cmin failed (see ${logs#"$ROOT"/}/cmin.log)"
  fi
  local -a found=()
  local f
  for f in "$out"/*/crashes/id:* "$out"/*/hangs/id:*; do
    [[ -f $f ]] && found+=("$f")
  done
  if ((${#found[@]})); then
    say "$t: triaging ${#found[@]} finding(s)"
    if [[ $t == refserver_stdio ]]; then
      # Replay through the ASan build of the same program when there is one.
      local rp="$ROOT/build-fuzz/bin/mcpcheck-refserver"
      [[ -x $rp ]] || rp="$ROOT/$bin"
      python3 fuzz/triage.py findings --target "$t" --repro "$rp" \
        --repro-stdin "$rp --step-delay 0" --afl-bin "$ROOT/$bin --step-delay 0" \
        --run-dir "$RUN" --root "$ROOT" "${found[@]}" || say "$t: triage failed"
    else
      local rp="$ROOT/build-fuzz/fuzz-bin/${t}_fuzzer"
      [[ -x $rp ]] || rp="$ROOT/$bin"
      python3 fuzz/triage.py findings --target "$t" --repro "$rp" --afl-bin "$ROOT/$bin" \
        --run-dir "$RUN" --root "$ROOT" "${found[@]}" || say "$t: triage failed"
    fi
  fi
  printf '%s\tafl\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$SECS" "$JOBS" "$execs" "$eps" \
    "$n_in" "$(count_files "$min")" "${#found[@]}" >>"$RUN/stats.tsv"
  EPS[$t]="$eps exec/s ($execs execs, ${#found[@]} raw findings)"
}

for t in "${TARGETS[@]}"; do
  if [[ $ENGINE == libfuzzer ]]; then run_libfuzzer "$t"; else run_afl "$t"; fi
done

python3 fuzz/triage.py report --run-dir "$RUN" >/dev/null
say "exec/s per target ($ENGINE):"
for t in "${TARGETS[@]}"; do
  [[ -n ${EPS[$t]:-} ]] && printf '  %-22s %s\n' "$t" "${EPS[$t]}"
done
say "report: ${RUN#"$ROOT"/}/report.md"
