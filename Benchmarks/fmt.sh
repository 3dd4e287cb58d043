# The formatter benchmark (issue 48). Rows:
# - tree: `flowpkg fmt --check` (layout only, as `stylua --check`) and `--check --verify` (Lua
#   5.4 compiles original and result, as every write does) on the validate benchmark's
#   Debian tree, against stock Lua 5.4 compiling the same files in one process (loadfile);
# - speed: a 729-line module (the size of StyLua's published date.lua), for lines per second;
# - pathological: deep nesting, a 10,000-element table and a 100,000-line generated file, each
#   against an ordinary file of the same size (Debian's Lua, concatenated).
# Sourced by Benchmarks/run: `Benchmarks/run fmt`.

fmt_workload() {
  local work="$BENCH_WORK/fmt"
  [[ -f "$work/ready" ]] && return 0
  rm -rf "$work"
  mkdir -p "$work/tree"
  local copies=6 i
  cp -R /usr/share/lua/5.1/. "$work/tree/"
  for ((i = 1; i < copies; i++)); do
    mkdir -p "$work/tree/copy$i"
    cp -R /usr/share/lua/5.1/. "$work/tree/copy$i/"
  done
  (cd "$work/tree" && find . -name '*.lua' -print0 | while IFS= read -r -d '' file; do
    luac5.4 -p "$file" 2>/dev/null || rm -f "$file"
  done)
  (cd "$work/tree" && find . -name '*.lua' | LC_ALL=C sort) >"$work/files.txt"
  cat >"$work/loadfile.lua" <<'LUA'
for path in io.lines(arg[1]) do
  assert(loadfile(path))
end
LUA
  # Ordinary code of a given size: Debian's modules one after another, each in `do ... end`.
  (cd "$work/tree" && while IFS= read -r file; do
    printf 'do\n'
    cat "$file"
    printf '\nend\n'
  done <"$work/files.txt") >"$work/ordinary-all.lua"
  # A 729-line module: the first 729 lines of ordinary code that compile.
  lua5.4 - "$work" <<'LUA'
local work = arg[1]
local all = io.open(work .. "/ordinary-all.lua"):read("a")
local function lines(n)
  local out, count = {}, 0
  for line in all:gmatch("[^\n]*\n") do
    out[#out + 1] = line
    count = count + 1
    if count >= n and load(table.concat(out)) then return table.concat(out) end
  end
  return table.concat(out)
end
local function write(name, text) local f = io.open(work .. "/" .. name, "w"); f:write(text); f:close() end
write("module729.lua", lines(729))
-- Deep nesting: 190 nested tables and calls (Lua's own limit is 200 C levels).
local deep = {}
for i = 1, 190 do deep[#deep + 1] = (i % 2 == 0) and "f(" or "{ " end
deep[#deep + 1] = "1"
for i = 190, 1, -1 do deep[#deep + 1] = (i % 2 == 0) and ")" or " }" end
local deepText = ("local x = " .. table.concat(deep) .. "\n"):rep(200)
write("deep.lua", deepText)
-- A 10,000-element table.
local items = {}
for i = 1, 10000 do items[i] = ("{ id = %d, name = \"item%d\", weight = %d.5 }"):format(i, i, i) end
local tableText = "return { " .. table.concat(items, ", ") .. " }\n"
write("table10000.lua", tableText)
-- A 100,000-line generated file.
local generated = {}
for i = 1, 100000 do generated[i] = ("local v%d = t[%d] + %d -- row %d"):format(i % 150, i, i, i) end
local generatedText = "local t = {}\n" .. table.concat(generated, "\n") .. "\n"
write("lines100000.lua", generatedText)
-- Ordinary files of the same sizes: whole modules, each in `do ... end`, until the size is
-- reached (a cut in the middle of a module would not compile).
local blocks = {}
for path in io.lines(work .. "/files.txt") do
  local text = io.open(work .. "/tree/" .. path):read("a")
  local block = "do\n" .. text .. "\nend\n"
  if load(block) then blocks[#blocks + 1] = block end
end
for _, name in ipairs({ "deep.lua", "table10000.lua", "lines100000.lua" }) do
  local size = #io.open(work .. "/" .. name):read("a")
  local out, total, index = {}, 0, 1
  while total < size do
    local block = blocks[(index - 1) % #blocks + 1]
    out[#out + 1] = block
    total = total + #block
    index = index + 1
  end
  local text = table.concat(out)
  assert(load(text), "ordinary-" .. name .. " does not compile")
  write("ordinary-" .. name, text)
end
LUA
  touch "$work/ready"
}

benchmark_fmt() {
  fmt_workload || return 1
  local work="$BENCH_WORK/fmt" name
  bench_row fmt-tree "flowpkg fmt --check" "lua5.4 loadfile loop" -- "$FLOWPKG" fmt --check "$work/tree"
  bench_row fmt-tree "flowpkg fmt --check --verify" "lua5.4 loadfile loop" -- "$FLOWPKG" fmt --check --verify "$work/tree"
  bench_row fmt-tree "lua5.4 loadfile loop" "lua5.4 loadfile loop" -- \
    bash -c "cd '$work/tree' && lua5.4 '$work/loadfile.lua' '$work/files.txt'"
  # fmt's floors: reading, lexing and parsing the same files; that and building the layout
  # without printing it; formatting them whole without diffs; one after another on one core
  # (Benchmarks/fmt-floor.swift), linked against the release build's objects as SwiftPM links
  # them (`package` names need the build's package name; static Swift libraries, as flowpkg).
  local package release=.build/release
  package=$(grep -ao -- '-package-name","[^"]*' .build/release.yaml | grep -v argument_parser | head -1 | sed 's/.*","//')
  if swiftc -O -static-stdlib -package-name "$package" -I "$release/Modules" \
    -Xcc "-fmodule-map-file=$release/CFlowLua.build/module.modulemap" \
    -Xcc "-fmodule-map-file=$release/CStyLuaToml.build/module.modulemap" \
    -Xcc -fmodule-map-file=Sources/CLua/module.modulemap -Xcc -fmodule-map-file=Sources/CTomlPlusPlus/module.modulemap \
    -Xcc "$(pkg-config --cflags-only-I lua5.4 | awk '{print $1}')" Benchmarks/fmt-floor.swift \
    "$release"/{LuaSyntax,FlowFormat,FlowLua,CFlowLua,FlowSupport,CStyLuaToml}.build/*.o \
    $(pkg-config --libs lua5.4) -lstdc++ -o "$work/fmt-floor" >"$work/floor.log" 2>&1; then
    bench_row fmt-tree "LuaSyntax lex+parse only (floor)" "lua5.4 loadfile loop" -- \
      bash -c "cd '$work/tree' && '$work/fmt-floor' parse '$work/files.txt'"
    bench_row fmt-tree "lex+parse+layout, not printed (one core)" "lua5.4 loadfile loop" -- \
      bash -c "cd '$work/tree' && '$work/fmt-floor' layout '$work/files.txt'"
    bench_row fmt-tree "lex+parse+layout+print, no diff (one core)" "lua5.4 loadfile loop" -- \
      bash -c "cd '$work/tree' && '$work/fmt-floor' format '$work/files.txt'"
  else
    BENCH_NOTES+=("fmt: the floor program did not build (see $work/floor.log)")
  fi
  bench_row fmt-speed "fmt --check, 729 lines" "fmt --check, 729 lines" -- "$FLOWPKG" fmt --check "$work/module729.lua"
  for name in deep table10000 lines100000; do
    bench_row "fmt-$name" "fmt --check $name.lua" "fmt --check ordinary" -- "$FLOWPKG" fmt --check "$work/$name.lua"
    bench_row "fmt-$name" "fmt --check ordinary" "fmt --check ordinary" -- "$FLOWPKG" fmt --check "$work/ordinary-$name.lua"
  done
  BENCH_NOTES+=("fmt: $(wc -l <"$work/files.txt") files of Debian's /usr/share/lua/5.1 (6 copies); pathological inputs against ordinary code of the same size")
}
