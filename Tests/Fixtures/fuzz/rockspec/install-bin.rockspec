package = "b"
version = "1.0-1"
build = { type = "builtin", modules = {}, install = { bin = { "evil.sh" } } }
