-- luacheck 313: a loop variable's value replaced before any read.
for index = 1, 3 do
  index = 0
  print(index)
end
