-- FlowLayout: places cells of different widths in rows, left to right, starting a new row
-- when the next cell would not fit. Like a collection view's flow layout, every full row is
-- justified (its spare columns shared out between the gaps); the last row keeps its
-- natural spacing.

local FlowLayout = {}
FlowLayout.__index = FlowLayout

--- A layout for `options.width` columns with `options.spacing` columns between cells.
function FlowLayout.new(options)
    options = options or {}
    return setmetatable({
        width = math.max(1, options.width or 80),
        spacing = options.spacing or 1,
        justify = options.justify ~= false,
    }, FlowLayout)
end

-- Spreads `spare` columns over the gaps of `row`, the first gaps taking one more when the
-- columns do not divide evenly, so the result never depends on anything but the widths.
local function justify(row, spare)
    local gaps = #row - 1
    if gaps < 1 or spare <= 0 then
        return
    end
    local each, extra = spare // gaps, spare % gaps
    local shift = 0
    for gap = 1, gaps do
        shift = shift + each + (gap <= extra and 1 or 0)
        row[gap + 1].x = row[gap + 1].x + shift
    end
end

--- Returns the rows for cells of the given widths: each row is a list of
--- `{ index = i, x = column, width = w }`, with `x` counted from 0.
function FlowLayout:arrange(widths)
    local rows, row, used = {}, {}, 0
    for index, width in ipairs(widths) do
        local x = (#row == 0) and 0 or (used + self.spacing)
        if #row > 0 and x + width > self.width then
            rows[#rows + 1] = row
            row, x = {}, 0
        end
        row[#row + 1] = { index = index, x = x, width = width }
        used = x + width
    end
    if #row > 0 then
        rows[#rows + 1] = row
    end
    if self.justify then
        for number = 1, #rows - 1 do
            local last = rows[number][#rows[number]]
            justify(rows[number], self.width - (last.x + last.width))
        end
    end
    return rows
end

return FlowLayout
