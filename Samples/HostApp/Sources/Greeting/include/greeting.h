#ifndef HOSTAPP_GREETING_H
#define HOSTAPP_GREETING_H

struct lua_State;

/// Opens the Lua module "greeting": a table with hello(name) and the Lua version compiled against.
/// Its type is lua_CFunction, which Swift sees as FlowRuntime's LuaCFunction.
int luaopen_greeting(struct lua_State *L);

#endif
