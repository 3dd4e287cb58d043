-- luacheck 421: a local in a nested block hiding a local of the same function.
local name = "a"
do
  local name = "b"
  print(name)
end
print(name)
