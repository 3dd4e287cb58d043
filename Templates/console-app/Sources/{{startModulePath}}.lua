-- {{startModule}}: where {{name}} starts. `flowpkg run` loads this module first.

-- Other modules of the project are loaded by name, the way Lua's own `require` does it.
local Banner = require("Banner")

-- Draws the message of the day in a frame.
local function show(message)
    local lines = {}
    for line in message:gmatch("[^\n]+") do
        lines[#lines + 1] = line
    end
    print(Banner.frame("{{name}}", lines))
end

-- Resources are read by name and type: Resources/motd.txt is ("motd", "txt"). Given a table
-- and a key, getResource also stores the text there, now and again whenever the file is saved
-- under `flowpkg dev`; this table has no fields of its own, so each store calls __newindex,
-- which draws the new text. (Saving this module or Banner runs this module again.)
collectgarbage() -- the screen of this module's previous run, if any, stops being redrawn
local screen = setmetatable({}, {
    __newindex = function(_, _, message)
        show(message)
    end,
})
getResource("motd", "txt", screen, "motd")
