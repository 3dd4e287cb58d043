# The run benchmark: how long `flowpkg run` takes to start. Packages holding Debian's
# /usr/share/lua/5.1 tree 21 times (about issue 6's 2,100 modules) and ten times (the validate
# workload's 1,000), one copy at the top so the others' `require "pl.utils"` resolve and the
# rest under copyN/, each plus 160 MB of resources (80 MB of incompressible "images", 80 MB of
# text) and a start module printing one line, against a package holding only that start module;
# (process start to the first Lua line is Benchmarks/startup.sh's). Opening a
# package reads its central directory and manifest only; each module is checked against its
# SHA-256 when first required (verify on first load), so neither the 2,100 modules nor the
# 160 MB of resources may show. `flowpkg run --verify-all` (every entry checked first) is timed
# too, for what the eager check costs.

# Builds (or reuses) $BENCH_WORK/NAME with COPIES copies of the tree and the resources.
run_large_project() {
  local large="$BENCH_WORK/$1" copies="$2"
  [[ -f "$large/flowpkg.json" ]] && return 0
  rm -rf "$large"
  mkdir -p "$large/Sources" "$large/Resources/images" "$large/Resources/texts"
  bench_copy_lua_tree "$large/Sources"
  for ((i = 1; i < copies; i++)); do
    mkdir -p "$large/Sources/copy$i"
    bench_copy_lua_tree "$large/Sources/copy$i"
  done
  for i in $(seq -w 1 80); do
    head -c 1048576 /dev/urandom >"$large/Resources/images/photo$i.png"
    find /usr/share/lua/5.1 -name '*.lua' -exec cat {} + | head -c 1048576 >"$large/Resources/texts/text$i.txt"
  done
  printf 'print("first line")\n' >"$large/Sources/main.lua"
  printf '{\n  "name": "RunBenchmark",\n  "identifier": "com.example.runbenchmark",\n  "version": "1.0.0",\n  "startModule": "main",\n  "sources": ["Sources"],\n  "resources": ["Resources"],\n  "externalModules": ["lfs", "bit32", "bit", "lxp", "lpeg", "term.core", "system.core"]\n}\n' \
    >"$large/flowpkg.json"
}

run_workload() {
  local small="$BENCH_WORK/run-small"
  run_large_project run-large-21 20
  run_large_project run-large 10
  if [[ ! -f "$small/flowpkg.json" ]]; then
    rm -rf "$small"
    mkdir -p "$small/Sources"
    printf 'print("first line")\n' >"$small/Sources/main.lua"
    printf '{\n  "name": "RunBenchmark",\n  "identifier": "com.example.runbenchmark",\n  "version": "1.0.0",\n  "startModule": "main",\n  "sources": ["Sources"]\n}\n' \
      >"$small/flowpkg.json"
  fi
  for name in large-21 large small; do
    if [[ ! -f "$BENCH_WORK/run-$name.luapkg" ]]; then
      "$FLOWPKG" export "$BENCH_WORK/run-$name" -o "$BENCH_WORK/run-$name.luapkg" >&2
    fi
  done
}

benchmark_run() {
  need_apt lua5.4 lua5.4 || { echo "benchmarks: lua5.4 is needed" >&2; return 1; }
  run_workload || { echo "benchmarks: run: could not export the packages" >&2; return 1; }
  local small="$BENCH_WORK/run-small.luapkg" name modules resources
  for name in run-large-21 run-large; do
    modules=$(find "$BENCH_WORK/$name/Sources" -name '*.lua' | wc -l)
    resources=$(find "$BENCH_WORK/$name/Resources" -type f -exec cat {} + | wc -c | awk '{printf "%d", $1 / 1000000}')
    BENCH_NOTES+=("run: $name.luapkg $(wc -c <"$BENCH_WORK/$name.luapkg" | awk '{printf "%d", $1 / 1000000}') MB ($modules modules, $resources MB of resources); each run prints one line")
    bench_row "run start-up" "flowpkg run, $modules modules + ${resources} MB" "flowpkg run, 1 module" -- "$FLOWPKG" run "$BENCH_WORK/$name.luapkg"
  done
  modules=$(find "$BENCH_WORK/run-large-21/Sources" -name '*.lua' | wc -l)
  resources=$(find "$BENCH_WORK/run-large-21/Resources" -type f -exec cat {} + | wc -c | awk '{printf "%d", $1 / 1000000}')
  bench_row "run --verify-all" "flowpkg run --verify-all, $modules modules + ${resources} MB" "flowpkg run, 1 module" -- "$FLOWPKG" run --verify-all "$BENCH_WORK/run-large-21.luapkg"
  bench_row "run --verify-all" "flowpkg run, 1 module" "" -- "$FLOWPKG" run "$small"
  bench_row "run start-up" "flowpkg run, 1 module" "" -- "$FLOWPKG" run "$small"
  # Process start to the first Lua line, against stock lua5.4 and the floor programs below, is
  # the startup benchmark's (Benchmarks/startup.sh: medians, CPU in microseconds).
}

# Builds (or reuses) the two floor programs; false when a compiler is missing.
run_floor_programs() {
  local floor="$BENCH_WORK/floor"
  mkdir -p "$floor"
  if [[ ! -x "$floor/swift-print" ]]; then
    printf 'print("first line")\n' >"$floor/main.swift"
    swiftc -O -static-stdlib "$floor/main.swift" -o "$floor/swift-print" >&2 || return 1
  fi
  if [[ ! -x "$floor/c-lua-archive" ]]; then
    cat >"$floor/main.c" <<'C'
#include <archive.h>
#include <lauxlib.h>
#include <lualib.h>
int main(void) {
  struct archive *a = archive_read_new();
  archive_read_support_format_zip_seekable(a);
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  int failed = luaL_dostring(L, "print(1)");
  lua_close(L);
  archive_read_free(a);
  return failed;
}
C
    # cc where there is one; otherwise the clang the Swift toolchain brings.
    local compiler=${CC:-$(command -v cc || command -v clang)}
    [[ -n "$compiler" ]] || return 1
    "$compiler" -O2 -I/usr/include/lua5.4 "$floor/main.c" -o "$floor/c-lua-archive" -llua5.4 -larchive >&2 || return 1
  fi
}
