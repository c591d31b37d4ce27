#!/usr/bin/env bash
# action.sh - the steps of the mcpcheck GitHub Action (action.yml), kept in a
# script so that they run, and are tested, outside GitHub too.
#
#   action.sh install   install mcpcheck: the .deb named by MC_DEB (a path or
#                       an https URL) with apt-get, else build this checkout
#                       (cmake configure + build, tests off); the path of the
#                       binary goes to $GITHUB_ENV as MCPCHECK_BIN
#   action.sh run       run mcpcheck; write report.md to $GITHUB_STEP_SUMMARY and
#                       the exit code, the counts per outcome and the report
#                       folder to $GITHUB_OUTPUT; exit 0 whatever the run said
#   action.sh gate      exit with the run's exit code (MC_EXIT_CODE)
#
# Inputs come from the environment (action.yml maps its inputs onto them):
#   MC_COMMAND           the server command, split at white space
#   MC_URL               a Streamable HTTP endpoint instead of (or beside) it
#   MC_VERSIONS          protocol versions, separated by commas or spaces
#   MC_PROFILE MC_BASELINE MC_GATE MC_FAIL_ON   files and the threshold
#   MC_ARGS              further `mcpcheck run` options, split at white space
#   MC_REPORT_DIR        where the reports go (default mcpcheck-reports)
#   MCPCHECK_BIN         the mcpcheck program (default: mcpcheck on PATH)
# GITHUB_STEP_SUMMARY, GITHUB_OUTPUT and GITHUB_ENV are files, as on GitHub.
set -uo pipefail

say() { printf 'mcpcheck-action: %s\n' "$*" >&2; }
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

out() { [[ -n ${GITHUB_OUTPUT:-} ]] && printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"; }

do_install() {
  local sudo=()
  [[ $(id -u) -eq 0 ]] || sudo=(sudo)
  if [[ -n ${MC_DEB:-} ]]; then
    local deb=$MC_DEB
    if [[ $deb == https://* ]]; then
      deb="${RUNNER_TEMP:-/tmp}/mcpcheck.deb"
      curl -fsSL --retry 3 -o "$deb" "$MC_DEB" || { say "cannot download $MC_DEB"; return 1; }
    fi
    "${sudo[@]}" apt-get update -qq
    # apt-get resolves the package's Depends from the archive.
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$(realpath "$deb")" || return 1
    [[ -n ${GITHUB_ENV:-} ]] && echo "MCPCHECK_BIN=/usr/bin/mcpcheck" >>"$GITHUB_ENV"
    return 0
  fi
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends cmake pkg-config gcc make \
    libjson-c-dev libcurl4-openssl-dev libmicrohttpd-dev || return 1
  cmake -S "$root" -B "$root/build-action" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DBUILD_TESTING=OFF >/dev/null || return 1
  cmake --build "$root/build-action" -j "$(nproc)" --target mcpcheck mcpcheck-refserver \
    >/dev/null || return 1
  [[ -n ${GITHUB_ENV:-} ]] && echo "MCPCHECK_BIN=$root/build-action/bin/mcpcheck" >>"$GITHUB_ENV"
  return 0
}

# The count of one outcome from report.md's table ("| passed | 12 |"),
# the same numbers report.json's summary.outcomes holds.
count_of() {
  awk -F'|' -v k="$1" '{ gsub(/^ +| +$/, "", $2); gsub(/[ *]/, "", $3) }
                       $2 == k || $2 == "**" k "**" { print $3; exit }' "$2"
}

do_run() {
  local bin=${MCPCHECK_BIN:-mcpcheck} dir=${MC_REPORT_DIR:-mcpcheck-reports}
  local args=(run --report-dir "$dir") cmd=() extra=() versions=${MC_VERSIONS:-} v rc
  for v in ${versions//,/ }; do args+=(--spec-version "$v"); done
  [[ -n ${MC_PROFILE:-} ]] && args+=(--profile "$MC_PROFILE")
  [[ -n ${MC_BASELINE:-} ]] && args+=(--baseline "$MC_BASELINE")
  [[ -n ${MC_GATE:-} ]] && args+=(--gate "$MC_GATE")
  [[ -n ${MC_FAIL_ON:-} ]] && args+=(--fail-on "$MC_FAIL_ON")
  read -ra extra <<<"${MC_ARGS:-}"
  args+=("${extra[@]}")
  [[ -n ${MC_URL:-} ]] && args+=(--url "$MC_URL")
  read -ra cmd <<<"${MC_COMMAND:-}"
  if ((${#cmd[@]})); then
    args+=(-- "${cmd[@]}")
  elif [[ -z ${MC_URL:-} ]]; then
    say "give the server's command or its URL"
    out exit-code 2
    return 0
  fi
  mkdir -p "$dir"
  "$bin" "${args[@]}" 2>&1 | tee "$dir/console.txt"
  rc=${PIPESTATUS[0]}
  out exit-code "$rc"
  out report-dir "$dir"
  if [[ -f $dir/report.md ]]; then
    [[ -n ${GITHUB_STEP_SUMMARY:-} ]] && cat "$dir/report.md" >>"$GITHUB_STEP_SUMMARY"
    local k
    for k in passed failed errors known warnings info ignored skipped "not verified" runs; do
      out "${k// /-}" "$(count_of "$k" "$dir/report.md")"
    done
  elif [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then
    printf '# mcpcheck: no report\n\nmcpcheck exited with %s before writing a report; see the log.\n' \
      "$rc" >>"$GITHUB_STEP_SUMMARY"
  fi
  [[ -f $dir/report.sarif ]] && out sarif "$dir/report.sarif"
  return 0
}

case "${1:-}" in
  install) do_install ;;
  run) do_run ;;
  gate) exit "${MC_EXIT_CODE:-3}" ;;
  *) echo "usage: action.sh install|run|gate" >&2; exit 2 ;;
esac
