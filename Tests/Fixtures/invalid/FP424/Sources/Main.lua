-- luacheck 214: an argument named as unused, then read.
local function handle(_event)
  return _event
end
print(handle(1))
