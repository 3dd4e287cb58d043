local Shapes = {}

--- The area of a square.
---@param side number the side's length
---@return number
function Shapes.square(side)
  return side * side
end

return Shapes
