#!/bin/sh
# check_sources.sh - house rules that a compiler does not check.
#
#  1. Library code (every layer but cli/ and the programs' main files) never
#     prints and never exits: it returns an error and fills a buffer.
#  2. No sprintf, strcpy, strcat, atoi or strtok anywhere.
#  3. Limits are named constants: core/limits.h exists and defines the
#     message size limit.
set -u
root=${1:?usage: check_sources.sh REPO_ROOT}
cd "$root/harness" || exit 2
status=0

lib_files=$(find core schema client scenario report refserver -name '*.c' 2>/dev/null |
            grep -v -e '/main\.c$' -e '/bench[^/]*\.c$' | sort)
hits=$(grep -HnE '(^|[^_[:alnum:]])(printf|fprintf|vfprintf|puts|fputs|perror|exit|_exit|abort)[[:space:]]*\(' \
       $lib_files 2>/dev/null | grep -v -e 'snprintf' -e 'vsnprintf' -e '^[^:]*:[0-9]*:[[:space:]]*/\?\*' \
       | grep -v 'client/process.c:.*_exit(127)')
if [ -n "$hits" ]; then
  echo "library code prints or exits:"; echo "$hits"; status=1
fi

banned=$(grep -rnE '(^|[^_[:alnum:]])(sprintf|strcpy|strcat|atoi|strtok)[[:space:]]*\(' \
         --include='*.c' --include='*.h' . | grep -v -e 'snprintf' -e 'vsnprintf')
if [ -n "$banned" ]; then
  echo "banned functions used:"; echo "$banned"; status=1
fi

if ! grep -q 'define MC_MAX_MESSAGE_SIZE' core/limits.h; then
  echo "core/limits.h does not define MC_MAX_MESSAGE_SIZE"; status=1
fi

[ $status -eq 0 ] && echo "check_sources: $(echo "$lib_files" | wc -l) library files clean"
exit $status
