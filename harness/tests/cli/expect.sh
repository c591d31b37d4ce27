#!/bin/sh
# expect.sh - run a command and check its exit code and output.
#
#   expect.sh CODE REGEX MAX_SECONDS -- CMD [ARGS...]
#
# Passes when CMD exits with CODE, its combined stdout+stderr matches the
# extended regular expression REGEX, it finishes within MAX_SECONDS, and no
# process of its session is left behind.
set -u
code=$1 regex=$2 max=$3
shift 3
[ "$1" = "--" ] && shift
out=$(mktemp)
start=$(date +%s)
# setsid gives the command its own session, so leftovers can be found by sid.
setsid "$@" >"$out" 2>&1 &
pid=$!
wait $pid
rc=$?
elapsed=$(( $(date +%s) - start ))
cat "$out"
status=0
if [ "$rc" -ne "$code" ]; then
  echo "expect.sh: exit code $rc, expected $code" >&2; status=1
fi
if ! grep -Eq "$regex" "$out"; then
  echo "expect.sh: output does not match /$regex/" >&2; status=1
fi
if [ "$elapsed" -gt "$max" ]; then
  echo "expect.sh: took ${elapsed}s, more than ${max}s" >&2; status=1
fi
left=$(ps -eo pid=,sid= | awk -v s="$pid" '$2 == s {print $1}')
if [ -n "$left" ]; then
  echo "expect.sh: processes left behind: $left" >&2
  kill -9 $left 2>/dev/null
  status=1
fi
rm -f "$out"
exit $status
