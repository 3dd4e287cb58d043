-- luacheck 423: a local in a nested block hiding a loop variable.
for index = 1, 3 do
  do
    local index = 0
    print(index)
  end
  print(index)
end
