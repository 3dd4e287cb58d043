-- luacheck 571: a numeric for loop from #t up to 1.
local list = { 1, 2 }
for index = #list, 1 do
  print(list[index])
end
