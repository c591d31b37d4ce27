#!/bin/sh
# record_round_trip.sh MCPCHECK REFSERVER: a recorded session lints clean and
# replays as a passing scenario; a server that answers differently fails it.
set -eu
mcpcheck=$1 refserver=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/scenarios/recorded"
printf '# comment\nresources/read {"uri": "test://static-text"}\nresources/read {"uri": "x://nope"}\nping\n' |
  "$mcpcheck" record -o "$dir/scenarios/recorded/r.jsonc" -- "$refserver"
grep -q '"request": "resources/read"' "$dir/scenarios/recorded/r.jsonc"
grep -q '"error": -32002' "$dir/scenarios/recorded/r.jsonc"
# Its placeholder check is the author's (a recording is no spec sentence).
grep -q '"author": true' "$dir/scenarios/recorded/r.jsonc"
grep -q '"text": "TODO: state your rule"' "$dir/scenarios/recorded/r.jsonc"
if grep -q '"quote"' "$dir/scenarios/recorded/r.jsonc"; then
  echo "record_round_trip: the skeleton borrows a spec quote"; exit 1
fi
"$mcpcheck" lint "$dir/scenarios"
"$mcpcheck" run --scenarios "$dir/scenarios" --report-dir "$dir/rep" -- "$refserver" | grep -q '1 passed, 0 failed'
# Against a server whose static text differs the recording's SHOULD warns,
# as the author's rule, and fails the run with --strict.
sed -i 's/This is the content/Changed content/' "$dir/scenarios/recorded/r.jsonc"
if "$mcpcheck" run -v --strict --scenarios "$dir/scenarios" --report-dir "$dir/rep" -- "$refserver" >"$dir/out" 2>&1; then
  echo "record_round_trip: an edited expectation still passed"; cat "$dir/out"; exit 1
fi
grep -q 'WARN' "$dir/out"
grep -q 'SHOULD your rule' "$dir/out"
echo "record round trip ok"
