-- luacheck 142: a field added to a standard library table.
table.unpack2 = function() end
