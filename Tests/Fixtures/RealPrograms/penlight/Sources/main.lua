-- Runs Penlight's own tests (the test-*.lua files and testp.lua beside this module, unchanged).
-- The script arguments name the tests to run, as Penlight's own run.lua runs one file per Lua
-- process: `flowpkg run penlight -- test-stringx` and `lua5.4 Sources/main.lua test-stringx`
-- do the same thing. Each test is required as a module; it prints what it prints, and this
-- runner adds one line per test ("ok NAME" or "FAIL NAME", the error on stderr). The exit
-- status is 1 when a test failed.
local names = { ... }
local failed = false
for _, name in ipairs(names) do
  local ok, err = pcall(require, name)
  if ok then
    print("ok " .. name)
  else
    failed = true
    print("FAIL " .. name)
    io.stderr:write(name, ": ", tostring(err), "\n")
  end
end
os.exit(failed and 1 or 0)
