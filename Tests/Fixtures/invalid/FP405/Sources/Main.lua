-- FP405: a read of a global that nothing defines: a typo.
local greeting = "hello"
pirnt(greeting)
print(greeting)
-- Not reported: reads the code tests first, globals set through _G, and a silenced line.
local unpack = table.unpack or unpack
if jit then print(jit.version) end
_G.shared = unpack({1})
print(shared)
hostThing() -- flowpkg: ignore FP405 (the host defines it)
