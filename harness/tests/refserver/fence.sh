#!/bin/sh
# fence.sh DIR - the reference server's performance machinery stays behind
# refserver/fast.h (see harness/refserver/README.md): only its own files
# include refserver/fastimpl.h, and nothing else names what that header
# declares. DIR is harness/refserver. Exit 1 with the offending lines.
set -eu
dir=$1
machinery='decode.c textout.c respcache.c sharedcache.c clone.c'
status=0

is_machinery() {
    for m in $machinery; do [ "$1" = "$m" ] && return 0; done
    return 1
}

# The machinery's files exist (a rename must update this list).
for m in $machinery; do
    [ -f "$dir/$m" ] || { echo "fence: $dir/$m is missing"; status=1; }
done

# The names fastimpl.h declares.
names=$(sed -n 's/^[a-z][a-z_ ]*[ *]\(mc__rs_[a-z_]*\)(.*/\1/p' "$dir/fastimpl.h")
[ -n "$names" ] || { echo "fence: no declarations found in fastimpl.h"; status=1; }

for f in "$dir"/*.c "$dir"/*.h; do
    b=$(basename "$f")
    is_machinery "$b" && continue
    [ "$b" = fastimpl.h ] && continue
    if grep -n '#include "refserver/fastimpl.h"' "$f"; then
        echo "fence: $b includes fastimpl.h (use refserver/fast.h)"; status=1
    fi
    for n in $names; do
        if grep -n "\\b$n\\b" "$f"; then
            echo "fence: $b uses $n, which only the machinery may"; status=1
        fi
    done
done
[ $status -eq 0 ] && echo "fence: the machinery is reached through fast.h only"
exit $status
