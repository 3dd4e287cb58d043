-- Helpers every file of the game uses, set as globals at the top level (as mrrescue's util.lua).
function clamp(value, low, high)
    return math.max(low, math.min(high, value))
end

SPEED = 40
