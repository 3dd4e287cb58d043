local strings = {}

function strings.join(list, separator)
  return table.concat(list, separator)
end

return strings
