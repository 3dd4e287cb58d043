-- luacheck 233: a loop variable set but never read.
for index = 1, 3 do
  index = 0
end
