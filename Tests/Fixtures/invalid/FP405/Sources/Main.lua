-- FP405: a read of a global that nothing defines: a typo.
local greeting = "hello"
pirnt(greeting)
print(greeting)
