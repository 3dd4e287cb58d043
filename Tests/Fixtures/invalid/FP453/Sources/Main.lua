-- luacheck 521: a label no goto names.
local function run()
  ::again::
  print("once")
end
run()
