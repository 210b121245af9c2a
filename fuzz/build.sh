#!/usr/bin/env bash
# Build the libFuzzer targets: fuzz/build.sh [OUTPUT_DIR]
#   OUTPUT_DIR  default build-fuzz (relative to the repository)
#   CC          default clang-14; TARGETS default "fuzz_policy fuzz_event fuzz_readers"
# The extension's sources are compiled in, with SQLITE_CORE, against the
# system SQLite (-lsqlite3); clang provides libFuzzer and the sanitizers.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build-fuzz}
CC=${CC:-clang-14}
mkdir -p "$out"
flags=(-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
       -fno-omit-frame-pointer -DSQLITE_CORE -DTIEBREAK_SOURCE_ID='"fuzz"'
       -Iext -Ifuzz)
for target in ${TARGETS:-fuzz_policy fuzz_event fuzz_readers}; do
  "$CC" "${flags[@]}" "fuzz/$target.c" ext/*.c ext/*/*.c -lsqlite3 -lm -o "$out/$target"
done
echo "built in $out: ${TARGETS:-fuzz_policy fuzz_event fuzz_readers}"
