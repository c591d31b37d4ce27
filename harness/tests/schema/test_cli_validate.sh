#!/usr/bin/env bash
# test_cli_validate.sh - `mcpcheck validate` end to end: exit codes, the
# FILE:LINE output, pairing, --def, --schema, --schema-dir, --result-of.
# usage: test_cli_validate.sh MCPCHECK OFFICIAL_SCHEMA_DIR   (its absence fails the test)
set -u
MC=$1
SPEC=${2:-}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0

# expect NAME WANT_EXIT GREP_PATTERN -- ARGS...
expect() {
    local name=$1 want=$2 pattern=$3
    shift 4
    local out rc
    out=$("$MC" validate "$@" 2>&1)
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        echo "FAIL $name: exit $rc, want $want"; echo "$out" | sed 's/^/  | /'
        fail=$((fail + 1)); return
    fi
    if [ -n "$pattern" ] && ! grep -qE -- "$pattern" <<<"$out"; then
        echo "FAIL $name: output lacks /$pattern/"; echo "$out" | sed 's/^/  | /'
        fail=$((fail + 1)); return
    fi
    echo "ok   $name"
    pass=$((pass + 1))
}

cat >"$T/trace.jsonl" <<'EOF'
{"jsonrpc":"2.0","id":1,"method":"resources/list"}
{"jsonrpc":"2.0","id":1,"result":{"resources":[{"uri":"test://a","name":"a"},{"name":"b"}]}}

{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"loud","data":1}}
EOF
cat >"$T/good.jsonl" <<'EOF'
{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"t","arguments":{}}}
{"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"text","text":"ok"}]}}
EOF
printf '{\n  "jsonrpc": "2.0",\n  "id": 3,\n  "method": "ping"\n}\n' >"$T/pretty.json"
printf '{"jsonrpc":"2.0","id":1,"result":{"resources":[]}}\n' >"$T/orphan.jsonl"
printf '{"name":"t","inputSchema":{"type":"object"}}\n' >"$T/tool.json"
printf '{"name":5}\n' >"$T/badtool.json"
printf '{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}\n' >"$T/toolsresult.json"
printf '{"type":"object","required":["a"]}\n' >"$T/schema.json"
printf '{"b":1}\n{"a":1}\n' >"$T/data.jsonl"
printf '{"jsonrpc":"2.0",\n' >"$T/broken.json"
cat >"$T/good-2026.jsonl" <<'EOF'
{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}},"name":"t","arguments":{}}}
{"jsonrpc":"2.0","id":"a","result":{"resultType":"input_required","inputRequests":{"x":{"method":"elicitation/create","params":{"mode":"form","message":"m","requestedSchema":{"type":"object","properties":{}}}}}}}
EOF
cat >"$T/trace-audio.jsonl" <<'EOF'
{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"t","arguments":{}}}
{"jsonrpc":"2.0","id":"a","result":{"content":[{"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}]}}
EOF
printf '{"type":"integer"}\n' >"$T/int.json"
printf '1\n' >"$T/one.json"
printf '42' >"$T/bare.json"
printf 'null\n' >"$T/null.json"
printf '1\nnull\n"x"\n2.5\n[1]\n7\n' >"$T/values.jsonl"
printf '{"properties":{"a":true},"unevaluatedProperties":false}\n' >"$T/uneval.json"
printf '{"a":1}\n{"a":1,"b":2}\n' >"$T/uneval-data.jsonl"
printf '{"type":"string","format":"uri"}\n' >"$T/fmt.json"
printf '"not a uri"\n' >"$T/notauri.json"
printf '{"$ref":"http://example.test/s.json"}\n' >"$T/remote.json"
mkdir -p "$T/remotes"
printf '{"type":"boolean"}\n' >"$T/remotes/s.json"

expect help 0 "Examples:" -- --help
expect no-file 2 "no FILE" --
expect unknown-option 2 "unknown option" -- --frobnicate x
expect missing-file 2 "cannot open" -- "$T/nope.json"
expect bad-version 2 "unknown protocol version" -- --spec-version 1999-01-01 "$T/good.jsonl"
expect good 0 "2 messages: 2 valid, 0 invalid" -- "$T/good.jsonl"
expect trace-locations 1 "trace.jsonl:2: error: /result/resources/1/uri: required property missing \[#/.defs/Resource/required\]" -- "$T/trace.jsonl"
# The default version is the newest with the handshake; the baseline on request.
expect trace-locations-baseline 1 "trace.jsonl:2: error: /result/resources/1/uri: required property missing \[#/definitions/Resource/required\]" -- --spec-version 2025-06-18 "$T/trace.jsonl"
expect trace-line-4 1 "trace.jsonl:4: error: /params/level" -- "$T/trace.jsonl"
expect pretty 0 "1 message: 1 valid" -- "$T/pretty.json"
expect broken-json 1 "broken.json:1: error: not a JSON message" -- "$T/broken.json"
expect orphan-warns 0 "warning: /result: the request this response answers is not known" -- "$T/orphan.jsonl"
expect result-of 0 "1 valid, 0 invalid, 0 warnings" -- --result-of resources/list "$T/orphan.jsonl"
expect result-of-bad 1 "/result/tools: required property missing" -- --result-of tools/list "$T/orphan.jsonl"
expect def-ok 0 "1 valid" -- --def Tool "$T/tool.json"
expect def-bad 1 "badtool.json:1: error: /name: expected string, got integer" -- --def Tool "$T/badtool.json"
expect def-result-member 0 "1 valid" -- --def ListToolsResult "$T/toolsresult.json"
expect def-unknown 2 "no definition" -- --def NoSuchThing "$T/tool.json"
expect v2025-11-25 0 "2 valid" -- --spec-version 2025-11-25 "$T/good.jsonl"
expect v2026-07-28-stateless 1 "/params/_meta: required property missing" -- --spec-version 2026-07-28 "$T/good.jsonl"
expect v2026-07-28 0 "2 valid" -- --spec-version 2026-07-28 "$T/good-2026.jsonl"
expect v2024-11-05 0 "2 valid" -- --spec-version 2024-11-05 "$T/good.jsonl"
expect v2024-11-05-audio 1 "trace-audio.jsonl:2: error" -- --spec-version 2024-11-05 "$T/trace-audio.jsonl"
expect v2025-03-26-audio 0 "2 valid" -- --spec-version 2025-03-26 "$T/trace-audio.jsonl"
expect schema-file 1 "data.jsonl:1: error: /a: required property missing" -- --schema "$T/schema.json" "$T/data.jsonl"
expect stdin 0 "1 valid" -- - <"$T/pretty.json"
expect quiet 1 "^2 messages" -- --quiet --schema "$T/schema.json" "$T/data.jsonl"
expect value-number 0 "1 message: 1 valid" -- --schema "$T/int.json" "$T/one.json"
expect value-bare 0 "1 message: 1 valid" -- --schema "$T/int.json" "$T/bare.json"
expect value-null 1 "null.json:1: error: \(root\): expected integer, got null" -- --schema "$T/int.json" "$T/null.json"
expect value-lines 1 "6 messages: 2 valid, 4 invalid" -- --schema "$T/int.json" "$T/values.jsonl"
expect uneval-draft7 0 "2 valid" -- --schema "$T/uneval.json" "$T/uneval-data.jsonl"
expect uneval-2020 1 "uneval-data.jsonl:2: error: /b: property not allowed \(unevaluatedProperties" -- --schema "$T/uneval.json" --dialect 2020-12 "$T/uneval-data.jsonl"
expect format-draft7 1 "is not an absolute URI" -- --schema "$T/fmt.json" "$T/notauri.json"
expect format-2020 0 "1 valid" -- --schema "$T/fmt.json" --dialect 2020-12 "$T/notauri.json"
expect bad-dialect 2 "draft7 or 2020-12" -- --schema "$T/fmt.json" --dialect draft4 "$T/notauri.json"
expect remote-unmapped 2 "cannot resolve" -- --schema "$T/remote.json" "$T/one.json"
expect remote-mapped 1 "expected boolean" -- --schema "$T/remote.json" --remote "http://example.test/=$T/remotes" "$T/one.json"
# The official schemas are an input of this test (CI always has them): their
# absence fails it.
if [ -n "$SPEC" ] && [ -d "$SPEC" ]; then
    expect schema-dir 1 "from $SPEC" -- --schema-dir "$SPEC" "$T/trace.jsonl"
    expect schema-dir-2024 0 "2 valid" -- --schema-dir "$SPEC" --spec-version 2024-11-05 "$T/good.jsonl"
else
    echo "FAIL schema-dir cases: no official schemas at '${SPEC}'"
    fail=$((fail + 1))
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
