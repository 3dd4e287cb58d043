-- FP402: an unknown require that runs later (inside a function) or is protected is a warning.
local M = {}

function M.highlight(text)
  local lpeg = require "lpeg"
  return lpeg.match(text)
end

local hasSocket, socket = pcall(require, "socket")

return M, hasSocket, socket
