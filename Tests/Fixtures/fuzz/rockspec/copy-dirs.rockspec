package = "c"
version = "1.0-1"
build = { type = "builtin", copy_directories = { "doc", "bin" } }
