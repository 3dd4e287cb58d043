// toml++ (Debian's libtomlplusplus-dev, Homebrew's tomlplusplus) is C++: Swift reaches it through
// CStyLuaToml's C functions, not this module. The module exists for pkg-config's flags
// (TOML_SHARED_LIB, the include and library folders) and the link to libtomlplusplus.
