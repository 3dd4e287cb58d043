# The validate benchmark: Debian's /usr/share/lua/5.1 tree copied into one project, compared
# with stock Lua 5.4 compiling the same files and with luacheck. Two sizes: ten copies (issue
# 3's recipe; 1,000 files where the tree holds 100) and 21 copies, about the issue's 2,100
# files and half a million lines, for a tree as large as the one the issue measured.

# Builds (or reuses) $BENCH_WORK/NAME: one copy at the top, so every copy's `require
# "pl.utils"` finds a module, and COPIES - 1 below it under copyN/.
validate_workload() {
  local name="$1" copies="$2"
  local project="$BENCH_WORK/$name"
  local source_tree=/usr/share/lua/5.1
  if [[ ! -f "$project/flowpkg.json" ]]; then
    rm -rf "$project"
    mkdir -p "$project/Sources"
    cp -R "$source_tree/." "$project/Sources/"
    for ((i = 1; i < copies; i++)); do
      mkdir -p "$project/Sources/copy$i"
      cp -R "$source_tree/." "$project/Sources/copy$i/"
    done
    # The C modules these libraries load come from the host, as they would in an app.
    # Only files Lua compiles: the rows compare compile speed, and some libraries the test setup
    # installs ship documentation stubs that are not Lua (lua-ldoc's ldoc/builtin).
    (cd "$project" && find Sources -name '*.lua' -print0 | while IFS= read -r -d '' file; do
      luac5.4 -p "$file" 2>/dev/null || rm -f "$file"
    done)
    cat >"$project/flowpkg.json" <<'JSON'
{
  "name": "ValidateBenchmark",
  "identifier": "com.example.benchmark",
  "version": "1.0.0",
  "externalModules": ["lpeg", "lfs", "lxp", "lanes", "bit", "bit32", "ffi", "yaml", "system.core", "term.core"]
}
JSON
  fi
  (cd "$project" && find Sources -name '*.lua' | LC_ALL=C sort) >"$BENCH_WORK/$name-files.txt"
  # Loads every file with loadfile in one process, as `lua5.4` would compile them.
  cat >"$BENCH_WORK/validate-loadfile.lua" <<'LUA'
local failures = 0
for path in io.lines(arg[1]) do
  local chunk, message = loadfile(path)
  if not chunk then failures = failures + 1; io.stderr:write(message, "\n") end
end
if failures > 0 then os.exit(1) end
LUA
}

validate_lua_loadfile() {
  local name="$1"
  (cd "$BENCH_WORK/$name" && lua5.4 "$BENCH_WORK/validate-loadfile.lua" "$BENCH_WORK/$name-files.txt")
}

validate_luac_each() {
  local name="$1"
  (cd "$BENCH_WORK/$name" && while IFS= read -r file; do luac5.4 -p "$file"; done <"$BENCH_WORK/$name-files.txt")
}

# Declares the rows of one size: validate_rows GROUP NAME COPIES [all], `all` adding luac and luacheck.
validate_rows() {
  local group="$1" name="$2" copies="$3" everything="${4:-}"
  validate_workload "$name" "$copies"
  local project="$BENCH_WORK/$name"
  local files lines
  files=$(wc -l <"$BENCH_WORK/$name-files.txt")
  lines=$(cd "$project" && xargs cat <"$BENCH_WORK/$name-files.txt" | wc -l)
  echo "benchmarks: $group workload: $files Lua files, $lines lines" >&2
  BENCH_NOTES+=("$group: $files Lua files, $lines lines (Debian's /usr/share/lua/5.1, $copies copies)")
  BENCH_NOTES+=("$group: flowpkg says: $({ "$FLOWPKG" validate "$project" || true; } | tail -n 1)")

  bench_row "$group" "flowpkg validate" "lua5.4 loadfile loop" -- "$FLOWPKG" validate "$project"
  bench_row "$group" "lua5.4 loadfile loop" "flowpkg validate" -- validate_lua_loadfile "$name"
  if [[ "$everything" == all ]]; then
    bench_row "$group" "luac5.4 -p per file" "flowpkg validate" -- validate_luac_each "$name"
    if command -v luacheck >/dev/null 2>&1; then
      bench_row "$group" "luacheck" "flowpkg validate" -- luacheck --no-config -q "$project/Sources"
    fi
  fi
  bench_measure "$group"
}

benchmark_validate() {
  need_apt lua5.4 lua5.4 || { echo "benchmarks: lua5.4 is needed" >&2; return 1; }
  need_apt luacheck lua-check || true
  validate_rows validate validate 10 all
  validate_rows "validate, 21 copies" validate-21 21
}
