build = { type = string.rep("x", math.maxinteger) }
