# The validate benchmark: Debian's /usr/share/lua/5.1 tree, ten copies, as one project.
# Compares `flowpkg validate` with stock Lua 5.4 compiling the same files and with luacheck.

validate_workload() {
  local project="$BENCH_WORK/validate"
  local source_tree=/usr/share/lua/5.1
  if [[ ! -f "$project/flowpkg.json" ]]; then
    rm -rf "$project"
    mkdir -p "$project/Sources"
    for i in 0 1 2 3 4 5 6 7 8 9; do
      mkdir -p "$project/Sources/copy$i"
      cp -R "$source_tree/." "$project/Sources/copy$i/"
    done
    printf '{\n  "name": "ValidateBenchmark",\n  "identifier": "com.example.benchmark",\n  "version": "1.0.0"\n}\n' \
      >"$project/flowpkg.json"
  fi
  (cd "$project" && find Sources -name '*.lua' | LC_ALL=C sort) >"$BENCH_WORK/validate-files.txt"
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
  (cd "$BENCH_WORK/validate" && lua5.4 "$BENCH_WORK/validate-loadfile.lua" "$BENCH_WORK/validate-files.txt")
}

validate_luac_each() {
  local project="$BENCH_WORK/validate"
  (cd "$project" && while IFS= read -r file; do luac5.4 -p "$file"; done <"$BENCH_WORK/validate-files.txt")
}

benchmark_validate() {
  need_apt lua5.4 lua5.4 || { echo "benchmarks: lua5.4 is needed" >&2; return 1; }
  need_apt luacheck lua-check || true
  validate_workload
  local project="$BENCH_WORK/validate"
  local files lines
  files=$(wc -l <"$BENCH_WORK/validate-files.txt")
  lines=$(cd "$project" && xargs cat <"$BENCH_WORK/validate-files.txt" | wc -l)
  echo "benchmarks: validate workload: $files Lua files, $lines lines" >&2
  BENCH_NOTES+=("validate: $files Lua files, $lines lines (Debian's /usr/share/lua/5.1 ×10)")
  BENCH_NOTES+=("validate: flowpkg says: $("$FLOWPKG" validate "$project" | tail -n 1)")

  bench_row validate "flowpkg validate" "lua5.4 loadfile loop" -- "$FLOWPKG" validate "$project"
  bench_row validate "lua5.4 loadfile loop" "flowpkg validate" -- validate_lua_loadfile
  bench_row validate "luac5.4 -p per file" "flowpkg validate" -- validate_luac_each
  if command -v luacheck >/dev/null 2>&1; then
    bench_row validate "luacheck" "flowpkg validate" -- luacheck --no-config -q "$project/Sources"
  fi
  bench_measure validate
}
