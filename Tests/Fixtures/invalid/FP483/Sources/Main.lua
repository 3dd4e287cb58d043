-- FP483: a missing argument the function uses.
local Banner = require("Banner")
print(Banner.show())
