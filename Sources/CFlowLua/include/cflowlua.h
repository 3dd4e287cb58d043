#ifndef FLOWPKG_CFLOWLUA_H
#define FLOWPKG_CFLOWLUA_H

struct lua_State;

/// `require "flowpkg.coverage"`: line counts of a Lua state, taken by a C line hook (coverage.c).
int flowlua_open_coverage(struct lua_State *L);

#endif
