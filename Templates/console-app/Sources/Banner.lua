-- Banner: draws a titled frame around lines of text.

local Banner = {}

-- Characters, not bytes, so accented text lines up too.
local function length(text)
    return utf8.len(text) or #text
end

--- Returns `lines` inside a frame with `title` on its top edge, as one string.
function Banner.frame(title, lines)
    local width = length(title) + 2
    for _, line in ipairs(lines) do
        width = math.max(width, length(line))
    end
    local out = { "+- " .. title .. " " .. string.rep("-", width - length(title) - 1) .. "+" }
    for _, line in ipairs(lines) do
        out[#out + 1] = "| " .. line .. string.rep(" ", width - length(line)) .. " |"
    end
    out[#out + 1] = "+" .. string.rep("-", width + 2) .. "+"
    return table.concat(out, "\n")
end

return Banner
