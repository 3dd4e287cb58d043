-- luacheck 413: a local of a loop's body named as its loop variable.
for index = 1, 3 do
  print(index)
  local index = 0
  print(index)
end
