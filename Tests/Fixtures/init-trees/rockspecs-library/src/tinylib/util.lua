local util = {}

function util.fold(list, start, step)
    local result = start
    for _, value in ipairs(list) do
        result = step(result, value)
    end
    return result
end

return util
