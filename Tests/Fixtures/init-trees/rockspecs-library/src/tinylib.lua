local util = require("tinylib.util")

local tinylib = { _VERSION = "1.2.0" }

function tinylib.sum(list)
    return util.fold(list, 0, function(a, b) return a + b end)
end

return tinylib
