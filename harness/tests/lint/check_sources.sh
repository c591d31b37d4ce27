#!/bin/sh
# check_sources.sh - house rules that a compiler does not check.
#
#  1. Library code (every layer but cli/ and the programs' main files) never
#     prints (to stdout or stderr) and never exits: it returns an error and
#     fills a buffer. Writing a file it opened itself is not printing.
#  2. No sprintf, strcpy, strcat, atoi or strtok anywhere.
#  3. Limits are named constants. core/limits.h defines the shared bounds
#     DESIGN.md names (message size, nesting depth, pending requests, stderr
#     capture, default timeouts). Library code compares nothing against a
#     bare number of three digits or more, and clamps nothing to one
#     (`x > 100 ? 100 : x`): a bound on input, on work or on a wait is a
#     named constant (a #define, in limits.h or beside its one user). Numbers
#     that are facts rather than limits pass by value: HTTP status classes
#     (200, 300, 400), the largest port (65535), an octet (255), ASCII (127),
#     a DNS name (253) and nanoseconds per second (1000000000).
#  4. Arrows (DESIGN.md), each layer includes only itself and the layers
#     below it: core only core; schema core; judge core and schema; client
#     core, schema and judge; scenario those and client; report those and
#     scenario; campaign those and report (its campaign report is written by
#     report/); the reference server only core
#     and itself; nothing outside harness/refserver/
#     includes refserver/internal.h (fuzz targets and tests use
#     refserver.h and units.h); core/limits.h holds no refserver limit.
#  5. cli/ talks to the session layer, never to a transport: of client/ it
#     includes session.h and target.h only (the server under test opened,
#     described and closed behind one handle); stdio.h, http*.h, process.h,
#     sse.h and link.h stay behind target.h.
#  6. The transports (client/stdio*, http*, sse*, link.h, process*,
#     proctree.c, httptarget*) include only core/ and the transports' own
#     headers: no session, no judge, no schema. They move records; the
#     judging is judge/'s.
#  7. Checks of the protocol are raised in judge/ alone: mc_wire_fail,
#     mc_wire_pass and a module's finding-raiser (mc_NAME_finding,
#     mc__NAME_finding, as the HTTP transport once had) are called nowhere
#     else, with no exception: the transports hand records to the judge.
#
# Usage: check_sources.sh REPO_ROOT   (exit 0 clean, 1 with the offending lines)
set -u
root=${1:?usage: check_sources.sh REPO_ROOT}
cd "$root/harness" || exit 2
status=0

lib_files=$(find core schema client judge scenario campaign report refserver -name '*.c' 2>/dev/null |
            grep -v -e '/main\.c$' -e '/bench[^/]*\.c$' | sort)
# Writing to a file the code opened is fine; stdout and stderr are not.
hits=$( (grep -HnE '(^|[^_[:alnum:]])(printf|vprintf|puts|putchar|perror|exit|_exit|abort)[[:space:]]*\(' \
          $lib_files 2>/dev/null
        grep -HnE '(fprintf|vfprintf|fputs|fputc|fwrite|putc)[[:space:]]*\(.*(stdout|stderr)' \
          $lib_files 2>/dev/null) | grep -v -e '^[^:]*:[0-9]*:[[:space:]]*/\?\*' \
       | grep -v 'client/process.c:.*_exit(127)')
if [ -n "$hits" ]; then
  echo "library code prints or exits:"; echo "$hits"; status=1
fi

banned=$(grep -rnE '(^|[^_[:alnum:]])(sprintf|strcpy|strcat|atoi|strtok)[[:space:]]*\(' \
         --include='*.c' --include='*.h' . | grep -v -e 'snprintf' -e 'vsnprintf')
if [ -n "$banned" ]; then
  echo "banned functions used:"; echo "$banned"; status=1
fi

for name in MC_MAX_MESSAGE_SIZE MC_MAX_JSON_DEPTH MC_MAX_PENDING_REQUESTS MC_STDERR_RING_SIZE \
            MC_DEFAULT_REQUEST_TIMEOUT_MS MC_DEFAULT_STARTUP_TIMEOUT_MS; do
  if ! grep -q "define $name " core/limits.h 2>/dev/null; then
    echo "core/limits.h does not define $name"; status=1
  fi
done

# Comments, string and character literals and preprocessor lines are left
# out; what remains is searched for a comparison or a clamp with a number.
bare=$(for f in $lib_files; do
  sed -e 's://.*$::' -e 's:"\([^"\\]\|\\.\)*":"":g' -e "s:'\\\\\\?.'::g" "$f" | awk -v f="$f" '
    { line = $0
      if (incomment) { if (line !~ /\*\//) next; sub(/^.*\*\//, "", line); incomment = 0 }
      gsub(/\/\*([^*]|\*+[^*\/])*\*+\//, "", line)
      if (line ~ /\/\*/) { sub(/\/\*.*$/, "", line); incomment = 1 }
      if (line ~ /^[ \t]*#/) next
      rest = line
      while (match(rest, /[<>]=?[ \t]*\(?[0-9][0-9][0-9]+[uUlL]*/)) {
        tok = substr(rest, RSTART, RLENGTH); gsub(/[^0-9]/, "", tok)
        if (!ok[tok + 0] && substr(rest, RSTART - 1, 1) != "-") { print f ":" NR ": " line; next }
        rest = substr(rest, RSTART + RLENGTH)
      }
      rest = line
      while (match(rest, /(^|[(,=!&|?:])[ \t]*[0-9][0-9][0-9]+[uUlL]*[ \t]*[<>]/)) {
        tok = substr(rest, RSTART, RLENGTH); gsub(/[^0-9]/, "", tok)
        if (!ok[tok + 0]) { print f ":" NR ": " line; next }
        rest = substr(rest, RSTART + RLENGTH)
      }
      if (line ~ /[<>]=?[ \t]*[0-9][0-9][0-9]+[uUlL]*[ \t]*\?[ \t]*[0-9][0-9][0-9]+/) print f ":" NR ": " line
    }
    BEGIN { ok[127] = ok[200] = ok[253] = ok[255] = ok[300] = ok[400] = ok[65535] = 1
            ok[1000000000] = 1 }'
done)
if [ -n "$bare" ]; then
  echo "a bound that is a bare number (name it in a #define):"; echo "$bare"; status=1
fi

arrows=$( (grep -Hn '#include "' core/*.c core/*.h 2>/dev/null | grep -v '#include "core/'
           grep -Hn '#include "' refserver/*.c refserver/*.h 2>/dev/null |
             grep -v -e '#include "core/' -e '#include "refserver/'
           grep -Hn '#include "' judge/*.c judge/*.h 2>/dev/null |
             grep -v -e '#include "core/' -e '#include "schema/' -e '#include "judge/'
           grep -Hn '#include "' schema/*.c schema/*.h 2>/dev/null |
             grep -v -e '#include "core/' -e '#include "schema/'
           grep -Hn '#include "' client/*.c client/*.h 2>/dev/null |
             grep -v -e '#include "core/' -e '#include "schema/' -e '#include "judge/' \
                     -e '#include "client/'
           grep -Hn '#include "' scenario/*.c scenario/*.h 2>/dev/null |
             grep -v -e '#include "core/' -e '#include "schema/' -e '#include "judge/' \
                     -e '#include "client/' -e '#include "scenario/'
           grep -Hn '#include "' report/*.c report/*.h 2>/dev/null |
             grep -v -e '#include "core/' -e '#include "schema/' -e '#include "judge/' \
                     -e '#include "client/' -e '#include "scenario/' -e '#include "report/'
           grep -Hn '#include "' campaign/*.c campaign/*.h 2>/dev/null |
             grep -v -e '#include "core/' -e '#include "schema/' -e '#include "judge/' \
                     -e '#include "client/' -e '#include "scenario/' -e '#include "report/' \
                     -e '#include "campaign/'
           grep -rHn '#include "client/' --include='*.c' --include='*.h' cli 2>/dev/null |
             grep -v -e '#include "client/session.h"' -e '#include "client/target.h"'
           grep -rHn '#include "refserver/internal.h"' --include='*.c' --include='*.h' . ../fuzz \
             2>/dev/null | grep -v -e '^\./refserver/' -e '^refserver/') )
if [ -n "$arrows" ]; then
  echo "an include against the layer rule:"; echo "$arrows"; status=1
fi
if grep -nE 'define[[:space:]]+(RS_|MC_REFSERVER_|MC_RS_)' core/limits.h 2>/dev/null; then
  echo "core/limits.h holds a reference-server limit (it belongs in refserver/limits.h)"; status=1
fi

transport_files=$(ls client/stdio*.[ch] client/http*.[ch] client/sse*.[ch] client/link.h \
                   client/process*.[ch] client/proctree.c client/httptarget*.[ch] 2>/dev/null)
if [ -n "$transport_files" ]; then
  tin=$(grep -Hn '#include "' $transport_files |
        grep -v -e '#include "core/' -e '#include "client/stdio.h"' -e '#include "client/link.h"' \
                -e '#include "client/process.h"' -e '#include "client/process_internal.h"' \
                -e '#include "client/http[_a-z]*.h"' -e '#include "client/sse.h"' \
                -e '#include "client/httptarget.h"')
  if [ -n "$tin" ]; then
    echo "a transport file includes more than core/ and the transports' headers:"; echo "$tin"
    status=1
  fi
fi

raise=$(for f in $(find . -path ./judge -prune -o -path ./tests -prune -o -name '*.c' -print |
                   sed 's:^\./::' | sort); do
  n=$(grep -cE '(^|[^_[:alnum:]])(mc_wire_fail|mc_wire_pass|mc__?[a-z0-9]+_finding)[[:space:]]*\(' "$f")
  [ "$n" -eq 0 ] || echo "$f: $n"
done)
if [ -n "$raise" ]; then
  echo "a check raised outside judge/ (calls of mc_wire_fail, mc_wire_pass, mc_*_finding):"
  echo "$raise"; status=1
fi

[ $status -eq 0 ] && echo "check_sources: $(echo "$lib_files" | wc -l) library files clean"
exit $status
