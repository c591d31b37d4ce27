#!/bin/sh
# check_sources_selftest.sh - check_sources.sh catches what it promises: a
# tree made of the real core/limits.h and one library file that breaks each
# rule once must fail with every rule's message, and the same tree with the
# file made clean must pass.
# Usage: check_sources_selftest.sh REPO_ROOT
set -u
root=${1:?usage: check_sources_selftest.sh REPO_ROOT}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mcpcheck-lint-selftest.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
status=0

mkdir -p "$tmp/harness/core" "$tmp/harness/scenario"
cp "$root/harness/core/limits.h" "$tmp/harness/core/limits.h"
cat >"$tmp/harness/scenario/bad.c" <<'C'
#include <stdio.h>
#define NAMED_CAP 4096
/* A comment that says printf("x") and 5000 > n is not code. */
static int f(char *d, const char *s, long n, long left)
{
    fprintf(stderr, "oops");
    strcpy(d, s);
    if (n > 4096)
        return 1;
    if (n < NAMED_CAP && n != 255)
        return 2;
    return left > 100 ? 100 : (int)left;
}
C
out=$(sh "$here/check_sources.sh" "$tmp" 2>&1); rc=$?
for want in "library code prints or exits:" "bad.c:6:" "banned functions used:" "bad.c:7:" \
            "a bound that is a bare number" "bad.c:8:" "bad.c:12:"; do
  case $out in
    *"$want"*) ;;
    *) echo "FAIL: the broken tree's output lacks '$want'"; status=1 ;;
  esac
done
case $out in *"bad.c:10:"*|*"bad.c:3:"*) echo "FAIL: a named bound or a comment was flagged"; status=1 ;; esac
[ $rc -eq 1 ] || { echo "FAIL: exit $rc on the broken tree, expected 1"; status=1; }

# The same file, clean: every rule passes.
sed -i -e '/fprintf/d' -e '/strcpy/d' -e 's/n > 4096/n > NAMED_CAP/' \
       -e 's/left > 100 ? 100/left > NAMED_CAP ? NAMED_CAP/' "$tmp/harness/scenario/bad.c"
out=$(sh "$here/check_sources.sh" "$tmp" 2>&1); rc=$?
[ $rc -eq 0 ] || { echo "FAIL: exit $rc on the clean tree:"; echo "$out"; status=1; }

# An arrow the wrong way and a refserver limit in core fail.
mkdir -p "$tmp/harness/refserver"
printf '#include "schema/validator.h"\n' >"$tmp/harness/refserver/up.c"
printf '#include "refserver/internal.h"\n' >"$tmp/harness/scenario/peek.c"
mkdir -p "$tmp/harness/client" "$tmp/harness/report"
printf '#include "scenario/runner.h"\n' >"$tmp/harness/client/up.c"
printf '#include "campaign/campaign.h"\n' >"$tmp/harness/report/side.c"
mkdir -p "$tmp/harness/cli/tool"
printf '#include "client/session.h"\n#include "client/target.h"\n#include "client/http.h"\n' \
  >"$tmp/harness/cli/wire.c"
printf '#include "client/stdio.h"\n' >"$tmp/harness/cli/tool/main.c"
printf '#define RS_MAX_THINGS 4\n' >>"$tmp/harness/core/limits.h"
out=$(sh "$here/check_sources.sh" "$tmp" 2>&1); rc=$?
for want in "refserver/up.c:1:" "scenario/peek.c:1:" "client/up.c:1:" "report/side.c:1:" \
            "cli/wire.c:3:" "cli/tool/main.c:1:" "holds a reference-server limit"; do
  case $out in
    *"$want"*) ;;
    *) echo "FAIL: the arrow checks miss '$want'"; status=1 ;;
  esac
done
case $out in
  *"cli/wire.c:1:"*|*"cli/wire.c:2:"*) echo "FAIL: cli/ including session.h or target.h was flagged"; status=1 ;;
esac
rm -rf "$tmp/harness/refserver/up.c" "$tmp/harness/scenario/peek.c" "$tmp/harness/client/up.c" \
      "$tmp/harness/report/side.c" "$tmp/harness/cli"
sed -i '/RS_MAX_THINGS/d' "$tmp/harness/core/limits.h"

# A transport that includes the judge, a check raised in the session and a
# transport's own finding-raiser fail; the campaign's bookkeeping of
# findings (mc__exec_add_finding) is no raiser.
printf '#include "judge/judge.h"\n' >"$tmp/harness/client/http_up.c"
printf 'static void f(void *w) { mc_wire_fail(w, "x", "y"); }\n' >"$tmp/harness/client/session_x.c"
printf 'static void g(void *h) { mc__http_finding(h, "x", 0, "y"); }\n' >"$tmp/harness/client/http_y.c"
printf 'static void k(void *h) { mc_stdio_finding(h); }\n' >"$tmp/harness/client/stdio_z.c"
mkdir -p "$tmp/harness/campaign"
printf 'static void e(void *o) { mc__exec_add_finding(o, 0, "x", "", "", ""); }\n' \
  >"$tmp/harness/campaign/exec_w.c"
out=$(sh "$here/check_sources.sh" "$tmp" 2>&1); rc=$?
for want in "client/http_up.c:1:" "a check raised outside judge/" "client/session_x.c: 1" \
            "client/http_y.c: 1" "client/stdio_z.c: 1"; do
  case $out in
    *"$want"*) ;;
    *) echo "FAIL: the transport and judge checks miss '$want'"; status=1 ;;
  esac
done
case $out in *"campaign/exec_w.c"*) echo "FAIL: the campaign's bookkeeping was flagged"; status=1 ;; esac
[ $rc -eq 1 ] || { echo "FAIL: exit $rc with a transport include and a check outside judge/"; status=1; }
# ... the same calls in judge/ pass.
rm -f "$tmp/harness/client/http_up.c" "$tmp/harness/campaign/exec_w.c"
mkdir -p "$tmp/harness/judge"
mv "$tmp/harness/client/session_x.c" "$tmp/harness/judge/x.c"
mv "$tmp/harness/client/http_y.c" "$tmp/harness/judge/y.c"
mv "$tmp/harness/client/stdio_z.c" "$tmp/harness/judge/z.c"
out=$(sh "$here/check_sources.sh" "$tmp" 2>&1); rc=$?
[ $rc -eq 0 ] || { echo "FAIL: exit $rc with the calls in judge/:"; echo "$out"; status=1; }
rm -rf "$tmp/harness/judge"

# A core/limits.h without a shared bound fails.
sed -i '/define MC_MAX_JSON_DEPTH /d' "$tmp/harness/core/limits.h"
out=$(sh "$here/check_sources.sh" "$tmp" 2>&1); rc=$?
case $out in *"does not define MC_MAX_JSON_DEPTH"*) ;; *) echo "FAIL: a missing limit passed"; status=1 ;; esac

[ $status -eq 0 ] && echo "check_sources_selftest: every rule fires on its violation and only there"
exit $status
