-- {{module}}.wrap: fitting words into lines of a given width.

local split = require("{{module}}.words").split

-- Characters, not bytes, so accented words measure right.
local function length(text)
    return utf8.len(text) or #text
end

--- Returns the words of `text` as lines no wider than `width` characters. A word longer than
--- `width` gets a line of its own rather than being cut.
local function wrap(text, width)
    local lines, current = {}, nil
    for _, word in ipairs(split(text)) do
        if current == nil then
            current = word
        elseif length(current) + 1 + length(word) <= width then
            current = current .. " " .. word
        else
            lines[#lines + 1] = current
            current = word
        end
    end
    lines[#lines + 1] = current
    return lines
end

return wrap
