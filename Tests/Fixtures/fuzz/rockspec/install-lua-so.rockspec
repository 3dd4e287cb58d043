package = "b"
version = "1.0-1"
build = { type = "builtin", install = { lua = { x = "x.so" } } }
