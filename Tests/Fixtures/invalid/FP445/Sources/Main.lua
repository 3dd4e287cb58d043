-- luacheck 422: a local in a nested block hiding an argument.
local function greet(name)
  do
    local name = "you"
    print(name)
  end
  return name
end
print(greet("me"))
