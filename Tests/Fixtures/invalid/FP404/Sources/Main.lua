-- FP404: getResource names a resource the project does not have (the file is a .png).
local logo = getResource("img/logo", "png")
local banner = getResource("img/logo", "jpg")
print(logo, banner)
