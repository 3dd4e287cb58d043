-- {{module}}.words: splitting text into words and counting them.

local words = {}

--- Returns the words of `text` in order: runs of letters, digits and apostrophes.
function words.split(text)
    local list = {}
    for word in text:gmatch("[%w']+") do
        list[#list + 1] = word
    end
    return list
end

--- Returns a table from each word (in lower case) to how often it appears in `text`.
function words.count(text)
    local counts = {}
    for _, word in ipairs(words.split(text)) do
        local key = word:lower()
        counts[key] = (counts[key] or 0) + 1
    end
    return counts
end

return words
