-- luacheck 613: a line inside a long string ending in whitespace.
print([[first  
second]])
