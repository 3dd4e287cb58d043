local LabelCell = {}

function LabelCell.new(font, text)
  return setmetatable({ font = font, text = text }, { __index = LabelCell })
end

return LabelCell
