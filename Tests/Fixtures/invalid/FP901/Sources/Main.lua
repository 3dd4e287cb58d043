--- A malformed annotation is reported where it is and ignored.
---@param count fun(
local function repeatText(count) return count end
print(repeatText(2))
