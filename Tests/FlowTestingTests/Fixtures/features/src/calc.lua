-- Found through busted's default lpath (./src/?.lua); it reads globals, so it needs _G as its _ENV.
local calc = {}

function calc.add(a, b)
  return math.tointeger(a + b) or (a + b)
end

-- Never called by the specs: its lines count as missed.
function calc.divide(a, b)
  if b == 0 then
    return nil, "division by zero"
  end
  return a / b
end

return calc
