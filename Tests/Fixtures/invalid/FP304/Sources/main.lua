-- FP304: 'later' does not compile, but main requires it only inside a function: the program
-- runs, and only a call of report() meets the error.
local function report()
  return require("later").text
end
print("started")
return report
