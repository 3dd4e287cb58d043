package = "n"
version = "1.0-1"
build = { type = "none", install = { lua = { n = "n.lua" } } }
