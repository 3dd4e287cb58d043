-- FP482: more arguments than the function has parameters.
local Banner = require("Banner")
print(Banner.show("a", "b"))
