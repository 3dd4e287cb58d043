-- FP481: a field the required module's table does not have.
local Banner = require("Banner")
print(Banner.fram)
