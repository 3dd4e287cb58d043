local calc = {}
function calc.add(a, b) return a + b end
return calc
