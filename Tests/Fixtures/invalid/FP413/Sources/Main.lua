-- luacheck 131: with allow_defined (.luacheckrc), a global no module reads.
version = "1.0"
