---@deprecated use newer
local function older() return 1 end
local function newer() return 2 end
print(older(), newer())
