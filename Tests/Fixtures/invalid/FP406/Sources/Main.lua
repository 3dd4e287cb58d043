-- FP406: Resources/notes.txt is named by no string literal (Resources/runtime/ is named at run
-- time: flowpkg.json ignores FP406 there).
local logo = getResource("logo", "png")
print(logo)
