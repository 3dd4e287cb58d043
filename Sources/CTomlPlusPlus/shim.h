// toml++ (Debian's libtomlplusplus-dev, Homebrew's tomlplusplus) is C++: Swift reaches it through
// CStyLuaToml's C functions, not this module. The module exists for pkg-config's include folder;
// CStyLuaToml compiles toml++ in (header-only), so flowpkg loads no libtomlplusplus at run time.
