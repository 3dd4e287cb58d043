local List = require "Views.List"
local Model = require "Model"

List.show(Model.words(getResource("texts/words", "txt")))
