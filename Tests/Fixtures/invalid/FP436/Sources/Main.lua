-- luacheck 331: a table filled, then replaced before any read.
local items = {}
items.first = 1
items = {}
print(items)
