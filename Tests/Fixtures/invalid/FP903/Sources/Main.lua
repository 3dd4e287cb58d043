---@param a number
---@param b number
---@return number
local function add(a, b)
  return a + b, a - b
end
print(add(1, 2))
