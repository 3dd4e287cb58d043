-- luacheck 614: a comment ending in whitespace.  
print("a")
