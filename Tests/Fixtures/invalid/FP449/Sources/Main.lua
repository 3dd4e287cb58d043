-- luacheck 433: a local hiding a loop variable of an enclosing function.
for index = 1, 3 do
  local function twice()
    local index = 2
    return index
  end
  print(index, twice())
end
