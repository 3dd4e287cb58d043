-- FP406: Resources/notes.txt is named by no string literal.
local logo = getResource("logo", "png")
print(logo)
