-- luacheck 111: a global set that nothing declares, often a missing `local`.
function greet(name)
  return "hello " .. name
end
