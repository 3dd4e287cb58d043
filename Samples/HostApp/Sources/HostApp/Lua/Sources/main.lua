-- The start module: the host loads it once, and again when it changes under `flowpkg serve`.
local words = require "words"
local greeting = require "greeting" -- a C module the host registered (luaopen_greeting)

print(words.banner("HostApp"))
print(greeting.hello("Lua") .. " (Lua " .. greeting.luaVersion .. ")")
print("Swift adds 1 + 2 + 3 = " .. swiftSum(1, 2, 3))
print("resource motto.txt: " .. getResource("motto", "txt"))

return { words = words.count }
