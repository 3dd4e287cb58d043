package = "a"
version = "1.0-1"
source = { url = "x" }
build = { type = "builtin", modules = { a = "a.lua", ["a.b"] = "a/b.lua" } }
