# The start-up benchmark (issue 26): `flowpkg run tiny.luapkg`, a one-module package printing
# one line, against stock `lua5.4 hello.lua`, by the median wall-clock and CPU time of
# alternating runs (Benchmarks/startup.py: CPU from wait4, in microseconds), beside the floor
# rows (a static Swift program that only prints; C programs linking liblua5.4, with and
# without libarchive). Then what each shared library costs a process at start: an empty C
# program linked with that library alone (and so with what it pulls in) against one linked
# with none. Then the relocations the dynamic loader applies to flowpkg and each library it
# loads (readelf), and the loader's own count and time (LD_DEBUG=statistics).

startup_rounds() { echo "${BENCH_STARTUP_ROUNDS:-$((BENCH_REPEAT * 20))}"; }

# Builds (or reuses) tiny.luapkg and hello.lua under $BENCH_WORK/startup.
startup_workload() {
  local work="$BENCH_WORK/startup"
  mkdir -p "$work/tiny/Sources"
  printf 'print("hello")\n' >"$work/hello.lua"
  if [[ ! -f "$work/tiny.luapkg" ]]; then
    printf 'print("hello")\n' >"$work/tiny/Sources/main.lua"
    printf '{\n  "name": "Tiny",\n  "identifier": "com.example.tiny",\n  "version": "1.0.0",\n  "startModule": "main",\n  "sources": ["Sources"]\n}\n' \
      >"$work/tiny/flowpkg.json"
    "$FLOWPKG" export "$work/tiny" -o "$work/tiny.luapkg" >&2 || return 1
  fi
  # The floor programs are the run benchmark's, plus a C program linking liblua5.4 alone.
  declare -F run_floor_programs >/dev/null || source Benchmarks/run.sh
  run_floor_programs || return 1
  local floor="$BENCH_WORK/floor" compiler=${CC:-$(command -v cc || command -v clang)}
  if [[ ! -x "$floor/c-lua" ]]; then
    sed -e '/archive/d' "$floor/main.c" >"$floor/lua.c"
    "$compiler" -O2 -I/usr/include/lua5.4 "$floor/lua.c" -o "$floor/c-lua" -llua5.4 >&2 || return 1
  fi
  # A static Swift program running print(1) in a new Lua state (liblua5.4 through a module
  # map): the least a Swift host of Lua loads and runs. And a static Swift program that prints
  # a line after importing Foundation (ICU included), for what Foundation adds.
  if [[ ! -x "$floor/swift-lua" ]]; then
    mkdir -p "$floor/FloorLua"
    printf '#include <lua.h>\n#include <lauxlib.h>\n#include <lualib.h>\n' >"$floor/FloorLua/shim.h"
    printf 'module FloorLua [system] {\n  header "shim.h"\n  link "lua5.4"\n  export *\n}\n' \
      >"$floor/FloorLua/module.modulemap"
    printf 'import FloorLua\nimport Glibc\nlet state = luaL_newstate()\nluaL_openlibs(state)\nlet failed = luaL_loadstring(state, "print(1)") != 0 || lua_pcallk(state, 0, 0, 0, 0, nil) != 0\nlua_close(state)\nexit(failed ? 1 : 0)\n' \
      >"$floor/swift-lua.swift"
    swiftc -O -static-stdlib -I "$floor" -Xcc -I/usr/include/lua5.4 "$floor/swift-lua.swift" -o "$floor/swift-lua" >&2 \
      || return 1
  fi
  if [[ ! -x "$floor/swift-foundation" ]]; then
    printf 'import Foundation\nprint("first line", Date().timeIntervalSince1970 > 0)\n' >"$floor/swift-foundation.swift"
    swiftc -O -static-stdlib "$floor/swift-foundation.swift" -o "$floor/swift-foundation" >&2 || return 1
  fi
}

# The libraries whose cost at start is measured: each linked alone into an empty C program.
STARTUP_LIBRARIES=(archive xml2 icuuc stdc++ nettle zstd lzma bz2 lz4 acl z lua5.4)

startup_library_programs() {
  local libs="$BENCH_WORK/startup/libs" compiler=${CC:-$(command -v cc || command -v clang)} lib file
  mkdir -p "$libs"
  printf 'int main(void) { return 0; }\n' >"$libs/empty.c"
  [[ -x "$libs/none" ]] || "$compiler" -O2 "$libs/empty.c" -o "$libs/none" || return 1
  for lib in "${STARTUP_LIBRARIES[@]}"; do
    [[ -x "$libs/$lib" ]] && continue
    file=$(ls /usr/lib/x86_64-linux-gnu/lib"$lib".so.* 2>/dev/null | head -1)
    [[ -n "$file" ]] || continue
    "$compiler" -O2 "$libs/empty.c" -o "$libs/$lib" -Wl,--no-as-needed "$file" || return 1
  done
}

# One table row per object the loader maps for `flowpkg run`: its relocations by kind.
startup_relocation_table() {
  local binary="$1" object path relative symbolic
  printf '| object | relative relocations | symbol relocations (data, PLT) |\n|---|---:|---:|\n'
  for object in "$binary" $(ldd "$binary" | awk '/=>/ {print $3}'); do
    relative=$(readelf -r -W "$object" 2>/dev/null | grep -c 'R_X86_64_RELATIV')
    # RELR-packed relative relocations are listed one per line too (readelf 2.38 and later).
    symbolic=$(readelf -r -W "$object" 2>/dev/null | grep -E 'R_X86_64_(GLOB_DAT|JUMP_SLO|64 |TPOFF|DTPMOD|DTPOFF|IRELATIV|COPY)' | wc -l)
    printf '| %s | %s | %s |\n' "$(basename "$object")" "$relative" "$symbolic"
  done
}

benchmark_startup() {
  need_apt lua5.4 lua5.4 || { echo "benchmarks: lua5.4 is needed" >&2; return 1; }
  command -v python3 >/dev/null || need_apt python3 python3 || return 1
  startup_workload || { echo "benchmarks: startup: could not build the workload" >&2; return 1; }
  local work="$BENCH_WORK/startup" floor="$BENCH_WORK/floor" rounds table lib
  rounds=$(startup_rounds)
  table=$(cd "$work" && python3 "$OLDPWD/Benchmarks/startup.py" "$rounds" \
    "lua5.4 hello.lua::lua5.4 hello.lua" \
    "flowpkg run tiny.luapkg::$FLOWPKG run tiny.luapkg" \
    "floor: static Swift program, prints a line::$floor/swift-print" \
    "floor: static Swift program + liblua5.4, print(1)::$floor/swift-lua" \
    "floor: static Swift program + Foundation, prints a line::$floor/swift-foundation" \
    "floor: C, liblua5.4, print(1)::$floor/c-lua" \
    "floor: C, liblua5.4 + libarchive, print(1)::$floor/c-lua-archive") || return 1
  BENCH_TABLES+=("start-up, median of $rounds alternating runs (milliseconds)

| row | wall ms | wall ratio | CPU ms | CPU ratio |
|---|---:|---|---:|---|
$table")
  if startup_library_programs; then
    local -a rows=("C program, no library::$work/libs/none")
    for lib in "${STARTUP_LIBRARIES[@]}"; do
      [[ -x "$work/libs/$lib" ]] && rows+=("C program + lib$lib::$work/libs/$lib")
    done
    table=$(python3 Benchmarks/startup.py "$rounds" "${rows[@]}") || return 1
    BENCH_TABLES+=("start-up cost of each shared library (with what it loads), median of $rounds alternating runs (milliseconds)

| row | wall ms | wall ratio | CPU ms | CPU ratio |
|---|---:|---|---:|---|
$table")
  fi
  local stats
  stats=$(cd "$work" && LD_DEBUG=statistics "$FLOWPKG" run tiny.luapkg 2>&1 >/dev/null | sed -n 's/^ *[0-9]*:\s*//p' | grep -E 'startup time|relocation|relative|load objects' | head -6 | sed 's/^/    /')
  BENCH_TABLES+=("relocations at start of \`flowpkg run\` (readelf -r)

$(startup_relocation_table "$FLOWPKG")

LD_DEBUG=statistics of one \`flowpkg run tiny.luapkg\`:

$stats")
}
