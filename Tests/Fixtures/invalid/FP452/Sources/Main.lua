-- luacheck 512: a loop whose every way through ends in break.
for index = 1, 3 do
  print(index)
  break
end
