-- luacheck 112: a field set on a global that nothing declares.
settings.volume = 3
