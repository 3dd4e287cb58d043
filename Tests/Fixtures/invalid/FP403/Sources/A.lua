-- FP403: A requires B, B requires C, C requires A, all at their top level.
local B = require "B"
return { run = function() return B end }
