# The in-process start-up benchmark (issue 33): what an app's user waits for. A host's
# `PackageLaunch` on an embedded package (Benchmarks/HostLaunch, built in release mode), timed
# from its first call to the start module's first printed line, against a bare C host
# (Benchmarks/host_launch.c, compiled here: liblua5.4 and zlib reading the same zip entry and
# running it), each many times in one process; the median and the best launch of each.
# Goal: PackageLaunch within 1.2x of the C host. `flowpkg run`'s process start-up stays in
# the start-up benchmark as a floor (it loads a static binary of ~18 MB first).

host_launch_rounds() { echo "${BENCH_HOST_LAUNCH_ROUNDS:-$((BENCH_REPEAT * 100))}"; }

benchmark_host_launch() {
  local work="$BENCH_WORK/host_launch" compiler=${CC:-$(command -v cc || command -v clang)}
  mkdir -p "$work/app/tiny/Sources"
  if [[ ! -f "$work/app/tiny.luapkg" ]]; then
    printf 'print("hello")\n' >"$work/app/tiny/Sources/main.lua"
    printf '{\n  "name": "Tiny",\n  "identifier": "com.example.tiny",\n  "version": "1.0.0",\n  "startModule": "main",\n  "sources": ["Sources"]\n}\n' \
      >"$work/app/tiny/flowpkg.json"
    "$FLOWPKG" export "$work/app/tiny" -o "$work/app/tiny.luapkg" >&2 || return 1
    rm -rf "$work/app/tiny"
  fi
  "$compiler" -O2 -I/usr/include/lua5.4 Benchmarks/host_launch.c -o "$work/c-host" -llua5.4 -lz >&2 || return 1
  echo "benchmarks: building Benchmarks/HostLaunch (release)" >&2
  # The build plan is made again each time (the objects are kept): SwiftPM does not notice a
  # file added to flowpkg's targets, seen from this package, and would link without it.
  rm -f "$work/.build/release.yaml"
  (cd Benchmarks/HostLaunch && swift build -c release --scratch-path "$work/.build" >&2) || return 1
  local swift_host="$work/.build/release/HostLaunch" rounds
  rounds=$(host_launch_rounds)
  local c_line swift_line file_line
  c_line=$("$work/c-host" "$rounds" "$work/app/tiny.luapkg") || return 1
  swift_line=$("$swift_host" "$rounds" "$work/app" com.example.tiny) || return 1
  # A floor: the same launch of the package's file, opened by path (no folder listed).
  file_line=$("$swift_host" "$rounds" "$work/app" com.example.tiny "$work/app/tiny.luapkg") || return 1
  # "median M best B open O context C module M", in microseconds: the launch, then the median
  # of each phase (the package opened; the state made and set up; the start module found,
  # read, checked, compiled and run up to its first line).
  local c_median c_best c_open c_context c_module s_median s_best s_open s_context s_module
  local f_median f_best f_open f_context f_module
  read -r _ c_median _ c_best _ c_open _ c_context _ c_module <<<"$c_line"
  read -r _ s_median _ s_best _ s_open _ s_context _ s_module <<<"$swift_line"
  read -r _ f_median _ f_best _ f_open _ f_context _ f_module <<<"$file_line"
  BENCH_TABLES+=("in-process start-up: from the launch call to the start module's first line, $rounds launches in one process each (microseconds)

| row | median µs | median ratio | best µs | best ratio |
|---|---:|---|---:|---|
| PackageLaunch (FlowRuntime), tiny.luapkg | $s_median | $(printf '%.2f' "$(echo "$s_median / $c_median" | bc -l)")× C host | $s_best | $(printf '%.2f' "$(echo "$s_best / $c_best" | bc -l)")× C host |
| C host: liblua5.4 + zlib, same entry | $c_median | — | $c_best | — |
| floor: PackageLaunch of the file by path (no folder listed) | $f_median | $(printf '%.2f' "$(echo "$f_median / $c_median" | bc -l)")× C host | $f_best | $(printf '%.2f' "$(echo "$f_best / $c_best" | bc -l)")× C host |

Median of each phase (µs): package opened / state made and set up / start module to its first line

| host | open | context | start module |
|---|---:|---:|---:|
| PackageLaunch | $s_open | $s_context | $s_module |
| floor: the file by path | $f_open | $f_context | $f_module |
| C host | $c_open | $c_context | $c_module |")
  BENCH_NOTES+=("host_launch: PackageLaunch opens the package (central directory, manifest, identifier), makes a context on the caller's thread (standard libraries, the precompiled host scripts) and runs modules/main.lua checked against its SHA-256; the C host inflates the entry and runs it in a new state")
}
