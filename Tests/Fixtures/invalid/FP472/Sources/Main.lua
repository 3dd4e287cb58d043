-- luacheck 612: a line of code ending in whitespace.
print("a")  
