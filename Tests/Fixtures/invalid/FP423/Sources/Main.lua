-- luacheck 213: a loop variable never read.
for index = 1, 3 do
  print("again")
end
