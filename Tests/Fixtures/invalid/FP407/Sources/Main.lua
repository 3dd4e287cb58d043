-- FP407: A and B require each other at their top level, but Main requires A only inside a
-- function: the program runs until that function is called.
local function later() return require "A" end
print("started")
return later
