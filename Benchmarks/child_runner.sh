# swift-subprocess 1.0.2 against a posix_spawn runner like FlowSupport's ChildProcess (issue 44):
# binary size (static, stripped) and the time to start, read and reap 1,000 children, and what
# linking it adds to every start of the program. Benchmarks/ChildRunner holds `spawn-none` (a
# program that starts nothing), `spawn-posix` (posix_spawn, a process group, a pipe, waitpid,
# with FoundationEssentials linked as flowpkg links it) and `spawn-subprocess` (Subprocess.run
# with its output collected as a string).

benchmark_child_runner() {
  local work="$BENCH_WORK/child_runner" build="${BENCH_CHILD_RUNNER_BUILD:-$BENCH_WORK/child_runner/build}"
  mkdir -p "$work"
  echo "benchmarks: building Benchmarks/ChildRunner (release, static)" >&2
  (cd Benchmarks/ChildRunner && swift build -c release --static-swift-stdlib --disable-local-rpath \
    -Xlinker --no-export-dynamic --scratch-path "$build" >&2) || return 1
  local name sizes=""
  for name in spawn-none spawn-posix spawn-subprocess; do
    cp "$build/release/$name" "$work/$name"
    strip --strip-all "$work/$name"
    sizes+="| $name | $(stat -c %s "$work/$name") |"$'\n'
  done
  BENCH_TABLES+=("Child runner: static, stripped binary sizes (bytes)

| binary | bytes |
|---|---:|
${sizes%$'\n'}")
  local children=${BENCH_CHILDREN:-1000}
  bench_row "child runner: $children children of /bin/true" "posix_spawn" "posix_spawn" -- "$work/spawn-posix" "$children"
  bench_row "child runner: $children children of /bin/true" "swift-subprocess" "posix_spawn" -- "$work/spawn-subprocess" "$children"
  bench_row "child runner: program start, no child" "spawn-posix" "spawn-posix" -- "$work/spawn-posix" 0
  bench_row "child runner: program start, no child" "spawn-subprocess" "spawn-posix" -- "$work/spawn-subprocess" 0
}
