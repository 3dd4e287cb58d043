---@param text string
---@return string first
---@return integer length
local function describe(text)
  if text == "" then
    return text
  end
  return text, #text
end
print(describe("a"))
