#!/usr/bin/env bash
# Fuzzes each target (the reader and index, the stripper, the decompressing reader, the Perfetto
# trace reader, the ELF and xz reader of a runtime's library) for a bounded
# time (default 300 s each): `fuzz/run.sh [SECONDS]`.
# Needs a nightly toolchain and cargo-fuzz (`rustup toolchain install nightly --profile minimal`,
# `cargo install cargo-fuzz`). Not part of CI's run. The corpus is seeded from the peers' fixtures
# (small ones, and the first kilobytes of others) into target/fuzz-corpus, outside the repo; crashes
# land in fuzz/artifacts/ and each one becomes a regression test in heap/tests/malformed.rs (traces:
# heap/tests/trace_bombs.rs; libraries: forkdump/tests/xz_bomb.rs).
set -euo pipefail
cd "$(dirname "$0")"
secs="${1:-300}"
fixtures="${HEAPTUI_FIXTURES:-../../shared/fixtures}"
corpus=../target/fuzz-corpus
# The trace target starts from Perfetto's own heap-graph test traces (encoded with protoc).
mkdir -p "$corpus/trace"
perfetto=../heap/tests/data/perfetto
for tp in "$perfetto"/*.textproto; do
  protoc -I"$perfetto" --encode=perfetto.protos.Trace art_heap_graph.proto heap_graph_trace.proto \
    < "$tp" > "$corpus/trace/$(basename "$tp" .textproto).pftrace"
done
# The ELF target starts from small libraries of this machine with a MiniDebugInfo made here
# (objcopy and xz, as Android's build makes one) and without.
mkdir -p "$corpus/elf"
for lib in /usr/lib/x86_64-linux-gnu/libz.so.1 /usr/lib/x86_64-linux-gnu/libdl.so.2; do
  [ -f "$lib" ] && cp -L "$lib" "$corpus/elf/$(basename "$lib")"
done
if command -v objcopy >/dev/null && command -v xz >/dev/null && [ -f /usr/lib/x86_64-linux-gnu/libdl.so.2 ]; then
  work=$(mktemp -d)
  objcopy --only-keep-debug /usr/lib/x86_64-linux-gnu/libdl.so.2 "$work/debug"
  xz -k "$work/debug"
  objcopy --add-section .gnu_debugdata="$work/debug.xz" /usr/lib/x86_64-linux-gnu/libdl.so.2 "$corpus/elf/libdl.mdi.so"
  rm -rf "$work"
fi
for t in index strip decompress; do
  mkdir -p "$corpus/$t"
  for f in "$fixtures"/jvm/jdk8u-jhat__minimal.bin "$fixtures"/jvm/hprof-slurp__hprof-32.bin \
           "$fixtures"/android/ahat-art__RI.hprof "$fixtures"/android/adt-tools-base__dialer.android-hprof; do
    [ -f "$f" ] || continue
    name=$(basename "$f")
    if [ "$t" = decompress ]; then
      # The target reads a selector byte (even: gzip, odd: zstd), then the compressed bytes.
      { printf '\0'; head -c 60000 "$f" | gzip -c; } > "$corpus/$t/$name.60k.gz"
      { printf '\0'; head -c 4096 "$f" | gzip -c; } > "$corpus/$t/$name.4k.gz"
      continue
    fi
    head -c 4096 "$f" > "$corpus/$t/$name.4k"
    head -c 60000 "$f" > "$corpus/$t/$name.60k"
  done
done
mkdir -p ../target/fuzz-logs
status=0
for t in index strip decompress trace elf; do
  log=../target/fuzz-logs/$t.log
  if cargo +nightly fuzz run "$t" "$corpus/$t" -- -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 -timeout=30 >"$log" 2>&1; then
    echo "$t: $(grep -E '^Done [0-9]+ runs' "$log" | tail -n 1)"
  else
    status=1
    echo "$t: FAILED, see $log and fuzz/artifacts/$t/"
    grep -E "panicked|SUMMARY" "$log" | head -n 3
  fi
done
exit $status
