-- FP408: the banner is asked for only inside a function, and the project has no img/banner:
-- the program runs, and only a call of banner() raises.
local logo = getResource("img/logo", "png")
local function banner() return getResource("img/banner", "png") end
print(#logo)
return banner
