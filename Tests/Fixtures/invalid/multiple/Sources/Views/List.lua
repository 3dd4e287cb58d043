local List = {}

function List.show(words)
  for index, word in ipairs(words) do
    print(index .. ": " .. word
  end
end

return List
