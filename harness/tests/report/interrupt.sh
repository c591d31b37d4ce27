#!/bin/sh
# interrupt.sh MCPCHECK REFSERVER - SIGINT during a run against a slow
# target leaves a valid report.json marked partial, keeps the scenarios that
# finished, lists the rest as not run, and leaves no server process behind.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
mcpcheck=$1 refserver=$2

# Each target records its pid, so that the test can tell none is left.
cat >"$tmp/target.sh" <<EOS
#!/bin/sh
echo \$\$ >>"$tmp/pids"
exec "$refserver" --step-delay 500
EOS
chmod +x "$tmp/target.sh"
kill_left() {
  [ -f "$tmp/pids" ] || return 0
  while read -r p; do kill -KILL "$p" 2>/dev/null; done <"$tmp/pids"
}
cleanup_hooks="kill_left"

"$mcpcheck" run --jobs 2 --report-dir "$tmp/out" -- "$tmp/target.sh" >"$tmp/run.log" 2>&1 &
pid=$!
# Interrupt once targets are running (the signal handlers are in place by
# then); a busy or sanitized build may take a while to get there.
i=0
while [ ! -s "$tmp/pids" ] && [ $i -lt $((300 * MC_TEST_MULT)) ]; do sleep 0.1; i=$((i + 1)); done
sleep 1
kill -INT "$pid"
# The run ends the steps under way, stops the targets and writes the report.
i=0
while kill -0 "$pid" 2>/dev/null && [ $i -lt $((300 * MC_TEST_MULT)) ]; do sleep 0.1; i=$((i + 1)); done
if kill -0 "$pid" 2>/dev/null; then
  fail "mcpcheck still running 30 s after SIGINT"
  kill -KILL "$pid"
fi
wait "$pid"
code=$?
echo "mcpcheck exited $code after SIGINT (~$((i / 10)) s)"
[ "$code" -eq 1 ] || [ "$code" -eq 3 ] && ok "exit code $code (1: failures found, 3: incomplete)" \
  || fail "exit $code"
tail -3 "$tmp/run.log"

py=$(pick_python)
"$py" - "$tmp/out/report.json" <<'EOP'
import json, sys
with open(sys.argv[1], encoding="utf-8") as f:
    d = json.load(f)
ok = True
def want(cond, what):
    global ok
    print(("ok: " if cond else "FAIL: ") + what)
    ok = ok and cond
want(d["run"]["partial"] is True, 'report.json parses and has "partial": true')
want(len(d["not_run"]) > 0, "the scenarios that did not run are listed (%d)" % len(d["not_run"]))
want(all(s["reason"] != "the run was interrupted" for s in d["scenarios"]),
     "no scenario is reported as ERROR for the interruption")
want(d["summary"]["not_run"] == len(d["not_run"]), "summary.not_run counts them")
want(len(d["scenarios"]) + len(d["not_run"]) >= 200, "finished + not run cover the plan")
sys.exit(0 if ok else 1)
EOP
[ $? -eq 0 ] || fail "report.json of the interrupted run"
grep -q '<property name="partial" value="true"/>' "$tmp/out/junit.xml" && ok "junit.xml marks the run partial" \
  || fail "junit partial"
grep -q 'not run: ' "$tmp/out/junit.xml" && ok "junit.xml lists not-run scenarios as skipped" || fail "junit not run"

left=""
if [ -f "$tmp/pids" ]; then
  while read -r p; do kill -0 "$p" 2>/dev/null && left="$left $p"; done <"$tmp/pids"
fi
[ -z "$left" ] && ok "no server process left behind ($(wc -l <"$tmp/pids") started)" \
  || fail "server processes left behind:$left"
finish
