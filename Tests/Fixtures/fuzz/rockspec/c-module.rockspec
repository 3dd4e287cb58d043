package = "c"
version = "1.0-1"
build = { type = "builtin", modules = { lfs = "src/lfs.c", sock = { sources = { "a.c" } } } }
