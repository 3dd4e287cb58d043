-- A busted spec of Banner, run by `flowpkg test` (each spec file in a fresh Lua state).
-- Its assertions come from luassert, a dev dependency: `flowpkg add --dev luassert` once.

local Banner = require("Banner")

describe("Banner.frame", function()
    it("draws the lines in a frame with the title on its top edge", function()
        local expected = table.concat({
            "+- Hi --+",
            "| hello |",
            "+-------+",
        }, "\n")
        assert.are.equal(expected, Banner.frame("Hi", { "hello" }))
    end)

    it("widens the frame to the longest line, counting characters", function()
        local lines = {}
        for line in Banner.frame("T", { "é", "long line" }):gmatch("[^\n]+") do
            lines[#lines + 1] = line
        end
        assert.are.equal(utf8.len(lines[1]), utf8.len(lines[2]))
        assert.are.equal("| long line |", lines[3])
    end)
end)
