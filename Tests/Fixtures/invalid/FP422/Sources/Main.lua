-- luacheck 212: an argument never read.
local function greet(name, punctuation)
  return "hello " .. name
end
print(greet("you"))
