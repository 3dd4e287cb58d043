-- FP301 (issue 34): 'later' does not compile, and main requires it only inside a function:
-- still an error, since export would package a module whose first require fails.
local function report()
  return require("later").text
end
print("started")
return report
