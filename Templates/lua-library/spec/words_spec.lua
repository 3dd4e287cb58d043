-- A busted spec of {{module}}.words, run by `flowpkg test` (each spec file in a fresh Lua state).
-- Its assertions come from luassert, a dev dependency: `flowpkg add --dev luassert` once.

local words = require("{{module}}.words")

describe("{{module}}.words", function()
    it("splits text into words", function()
        assert.are.same({ "Hello", "world", "it's", "42" }, words.split("Hello, world: it's 42!"))
    end)

    it("counts each word in lower case", function()
        assert.are.same({ the = 2, cat = 1 }, words.count("The cat, the"))
    end)
end)
