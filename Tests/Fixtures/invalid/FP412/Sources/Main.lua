-- luacheck 122: a field of a standard library table replaced.
string.format = function() return "" end
