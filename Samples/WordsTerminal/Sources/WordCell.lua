-- WordCell: one word drawn as a three-line box exactly as wide as the word needs. The border
-- says how long the word is, the way the iOS sample gives each cell its own colour.

local WordCell = {}
WordCell.__index = WordCell

-- Border pieces: top-left, top-right, bottom-left, bottom-right, horizontal, vertical.
local borders = {
    light = { "┌", "┐", "└", "┘", "─", "│" },
    rounded = { "╭", "╮", "╰", "╯", "─", "│" },
    heavy = { "┏", "┓", "┗", "┛", "━", "┃" },
    double = { "╔", "╗", "╚", "╝", "═", "║" },
}

local function length(text)
    return utf8.len(text) or #text
end

local function borderFor(word)
    local size = length(word)
    if size <= 3 then
        return borders.light
    elseif size <= 6 then
        return borders.rounded
    elseif size <= 9 then
        return borders.heavy
    end
    return borders.double
end

-- The first `count` characters of `text`.
local function prefix(text, count)
    local stop = utf8.offset(text, count + 1)
    return stop and text:sub(1, stop - 1) or text
end

--- A cell for `word` no wider than `maxWidth` columns; a longer word is cut and ends in "…".
function WordCell.new(word, maxWidth)
    local border = borderFor(word)
    if maxWidth and length(word) + 4 > maxWidth then
        word = prefix(word, math.max(1, maxWidth - 5)) .. "…"
    end
    return setmetatable({ word = word, border = border, width = length(word) + 4 }, WordCell)
end

--- The cell's three lines, each exactly `self.width` columns wide.
function WordCell:lines()
    local b = self.border
    local edge = string.rep(b[5], self.width - 2)
    return {
        b[1] .. edge .. b[2],
        b[6] .. " " .. self.word .. " " .. b[6],
        b[3] .. edge .. b[4],
    }
end

return WordCell
