-- Runs rxi/lume's own test, test_lume.lua with its tester.lua, unchanged (upstream runs
-- `lua test_lume.lua` in its test/ folder; here both files sit beside lume.lua in Sources/).
require "test_lume"
