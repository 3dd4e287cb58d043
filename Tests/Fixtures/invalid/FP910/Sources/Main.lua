---@class Size
---@field width number
---@field height number
---@field unit? string

---@param size Size
---@return number
local function area(size)
  return size.width * size.height
end

print(area({ width = 2, height = 3 }), area({ width = 2 }))
