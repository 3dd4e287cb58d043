-- luacheck 432: a local hiding an argument of an enclosing function.
local function outer(name)
  local function inner()
    local name = "b"
    return name
  end
  return inner(), name
end
print(outer("a"))
