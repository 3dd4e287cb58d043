local Util = require "Util"
local strings = require "Util.strings"

local words = Util.words(getResource("texts/words", "txt"))
print(strings.join(words, ", "))
print(getResource("img/logo", "png"))
