#!/usr/bin/env bash
# setup.sh - install what mcpcheck needs on Debian 12, then configure and build.
#
# Idempotent: packages already installed are left alone, and the build is
# incremental. Usage: scripts/setup.sh [PRESET...]   (default: default)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# The Debian packages the project builds, tests and fuzzes with.
PACKAGES=(
  build-essential cmake pkg-config git
  libjson-c-dev          # JSON parsing and building
  libcmocka-dev          # unit tests
  clang libclang-rt-14-dev  # libFuzzer, sanitizer runtimes
  afl++                  # AFL++ fuzzing
  json-schema-test-suite # the official JSON Schema test suite (draft7)
  python3                # small test drivers
  time                   # /usr/bin/time: peak RSS in scripts/bench.sh server
  python3-junitparser    # a JUnit reader: the report tests read junit.xml with it
  python3-jsonschema     # a second validator for scenarios/scenario.schema.json (its test)
  chromium               # headless rendering test of report.html (skipped without it)
  libcurl4-openssl-dev   # the Streamable HTTP client transport
  libmicrohttpd-dev      # the reference server over Streamable HTTP
  dpkg-dev               # dpkg-shlibdeps: the Depends of the .deb (scripts/package.sh)
  lintian                # the package's checker (tests/install/deb.py)
  help2man               # the programs' manuals, made from --help
  cmark-gfm              # report.md rendered as GitHub does (tests/report/counts_agree.py)
)

say() { printf 'setup: %s\n' "$*"; }

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]})); then
  say "installing missing packages: ${missing[*]}"
  if [[ $(id -u) -eq 0 ]]; then SUDO=(); elif command -v sudo >/dev/null; then SUDO=(sudo); else
    say "error: need root or sudo to install: ${missing[*]}" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${SUDO[@]}" apt-get update -qq
  "${SUDO[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  say "all required packages are installed"
fi

presets=("$@")
((${#presets[@]})) || presets=(default)
jobs="$(nproc 2>/dev/null || echo 2)"
# ccache, when it is installed (it is not required), compiles what another
# tree or an earlier clone compiled already; paths below the checkout are
# hashed relative to it, so that clones in other folders share entries.
# MCPCHECK_NO_CCACHE=1 leaves it out.
launcher=()
if command -v ccache >/dev/null && [[ -z ${MCPCHECK_NO_CCACHE:-} ]]; then
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$ROOT}"
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
for preset in "${presets[@]}"; do
  dir=build
  [[ $preset == default ]] || dir="build-$preset"
  if [[ ! -f $dir/CMakeCache.txt ]]; then
    say "configuring preset '$preset' in $dir/${launcher:+ (with ccache)}"
    cmake --preset "$preset" "${launcher[@]}" >/dev/null
  fi
  say "building preset '$preset' ($jobs jobs)"
  cmake --build "$dir" -j "$jobs" >/dev/null || {
    # Show the errors only when the quiet build fails.
    cmake --build "$dir" -j 1
    exit 1
  }
done
say "done: binaries are in build/bin/"
