package = "p"
version = "1.0-1"
build = { type = "builtin", platforms = { unix = { install = { bin = { "x" } }, type = "command" } } }
