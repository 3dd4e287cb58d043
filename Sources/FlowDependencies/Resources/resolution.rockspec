-- The rockspec flowpkg hands `luarocks install --only-deps` to resolve a project's dependencies
-- (RockResolver): it installs nothing of its own. RockResolver puts the dependency list, each a
-- quoted Lua string, where the marker below is.
package = "flowpkg-resolution"
version = "0-0"
source = { url = "" }
dependencies = { --[[DEPENDENCIES]] }
build = { type = "builtin", modules = {} }
