-- WordsController: the start module. It reads the words of Resources/words.txt, makes a cell
-- for each, lets the flow layout place them at the terminal's width, and prints the result.
-- It draws again whenever the text changes or a module is reloaded.

local WordsController = {}

-- How wide the terminal is: COLUMNS when the shell exports it, else the classic 80.
local function terminalColumns()
    local getenv = os and os.getenv
    local columns = tonumber(getenv and getenv("COLUMNS") or nil)
    if columns == nil or columns < 8 then
        return 80
    end
    return math.floor(columns)
end

-- "1 word", "2 words".
local function counted(count, noun)
    return string.format("%d %s%s", count, noun, count == 1 and "" or "s")
end

-- The words of `text`, in order: runs of letters, digits and apostrophes.
local function splitWords(text)
    local words = {}
    for word in text:gmatch("[%w']+") do
        words[#words + 1] = word
    end
    return words
end

--- Everything the controller draws, as one string.
function WordsController:renderedText()
    -- Looked up on every draw rather than once, so a reloaded module is used at once.
    local FlowLayout = require "FlowLayout"
    local WordCell = require "WordCell"

    local cells, widths = {}, {}
    for index, word in ipairs(self.words) do
        cells[index] = WordCell.new(word, self.columns)
        widths[index] = cells[index].width
    end
    local rows = FlowLayout.new({ width = self.columns, spacing = 1 }):arrange(widths)

    local out = { string.format("%s from words.txt, %d columns", counted(#self.words, "word"), self.columns), "" }
    for _, row in ipairs(rows) do
        for line = 1, 3 do
            local parts, column = {}, 0
            for _, place in ipairs(row) do
                parts[#parts + 1] = string.rep(" ", place.x - column) .. cells[place.index]:lines()[line]
                column = place.x + place.width
            end
            out[#out + 1] = table.concat(parts)
        end
    end
    out[#out + 1] = ""
    out[#out + 1] = counted(#rows, "row")
    return table.concat(out, "\n")
end

function WordsController:render()
    print(self:renderedText())
end

--- Called for `controller.text = ...`: getResource assigns the text now and again whenever
--- words.txt changes, and each assignment draws the words anew.
function WordsController:setText(text)
    rawset(self, "words", splitWords(text))
    self:render()
end

--- A controller drawing at `columns` columns. `text` is not stored as a field, so that every
--- assignment to it reaches setText.
function WordsController.new(columns)
    return setmetatable({ columns = columns, words = {} }, {
        __index = WordsController,
        __newindex = function(self, key, value)
            if key == "text" then
                self:setText(value)
            else
                rawset(self, key, value)
            end
        end,
    })
end

local controller = WordsController.new(terminalColumns())

-- Draws now, and again whenever the resource changes during live development.
getResource("words", "txt", controller, "text")

-- A reloaded layout or cell module re-runs this module too (the runtime reloads every module
-- that required the changed one), and the new controller draws on its own.

return controller
