-- FP401: a top-level require of a module that nothing provides fails at start-up.
local helpers = require "Helpers"
local json = require("jsno")

print(helpers.greeting, json)
