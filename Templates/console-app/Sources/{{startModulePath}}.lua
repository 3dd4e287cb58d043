-- {{startModule}}: where {{name}} starts. `flowpkg run` loads this module first.

-- Other modules of the project are loaded by name, the way Lua's own `require` does it.
local Banner = require "Banner"

-- Resources are read by name and type: Resources/motd.txt is ("motd", "txt").
local message = getResource("motd", "txt")

local lines = {}
for line in message:gmatch("[^\n]+") do
    lines[#lines + 1] = line
end

print(Banner.frame("{{name}}", lines))
