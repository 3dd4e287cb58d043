package = "tinylib"
version = "1.2.0-1"
source = { url = "git://example.invalid/tinylib.git", tag = "v1.2.0" }
description = { summary = "A small library", license = "MIT" }
dependencies = { "lua >= 5.1", "inspect >= 3.1" }
build = {
    type = "builtin",
    modules = {
        tinylib = "src/tinylib.lua",
        ["tinylib.util"] = "src/tinylib/util.lua",
    },
}
