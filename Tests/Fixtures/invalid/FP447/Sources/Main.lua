-- luacheck 431: a local hiding a local of an enclosing function.
local name = "a"
local function greet()
  local name = "b"
  return name
end
print(greet(), name)
