---@type integer
local retries = 3
retries = retries + 1
---@type string
local name = 42 -- a number is no string
print(retries, name)
