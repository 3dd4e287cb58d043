// --- a context's host API: getResource, messages ---
#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include "cflowlua.h"

//
// C closures rather than Lua set-up chunks: a context installs them with a few API calls at
// every start instead of loading and running bytecode (Benchmarks/README.md, host_launch). The
// host's own functions (`fetch`, `notifyHost`, `write`) are Swift, reached through
// flowlua_trampoline; these only arrange tables and calls. Errors name the caller's line, as
// the standard library's own functions do.

/// Lua's `type(value)` for argument `i`: "nil" for an absent one.
static const char *flowlua_host_typename(lua_State *L, int i) {
    int type = lua_type(L, i);
    return lua_typename(L, type == LUA_TNONE ? LUA_TNIL : type);
}

/// Raises "bad argument #i to 'name' (T expected, got U)" at the caller's line unless
/// argument `i` has exactly type `expected` (no conversions: a number is no string here).
static void flowlua_host_check(lua_State *L, int i, int expected, const char *name) {
    if (lua_type(L, i) != expected)
        luaL_error(L, "bad argument #%d to '%s' (%s expected, got %s)", i, name, lua_typename(L, expected),
                   flowlua_host_typename(L, i));
}

/// Raises the value on top as `error(value, 2)` does from the caller's function: a string gets
/// the caller's place in front.
static int flowlua_host_raise(lua_State *L) {
    if (lua_type(L, -1) == LUA_TSTRING) {
        luaL_where(L, 1);
        lua_insert(L, -2);
        lua_concat(L, 2);
    }
    return lua_error(L);
}

// The host API's closures share four upvalues: fetch(name, type) -> content | nil, message;
// notifyHost(message, ...); object -> { [key] = { name, type } } (weak keys, so an association
// never keeps its object alive); message -> { { handler, method }, ... }.
#define FLOWLUA_HOST_FETCH lua_upvalueindex(1)
#define FLOWLUA_HOST_NOTIFY lua_upvalueindex(2)
#define FLOWLUA_HOST_ASSOCIATIONS lua_upvalueindex(3)
#define FLOWLUA_HOST_HANDLERS lua_upvalueindex(4)

/// `getResource(name [, type [, object, key]])`: the resource's content; with an object, also
/// `object[key] = content`, remembered so a changed resource is delivered there again.
static int flowlua_get_resource(lua_State *L) {
    lua_settop(L, 4);
    flowlua_host_check(L, 1, LUA_TSTRING, "getResource");
    if (lua_isnil(L, 2)) {
        lua_pushliteral(L, "");
        lua_replace(L, 2);
    } else {
        flowlua_host_check(L, 2, LUA_TSTRING, "getResource");
    }
    lua_pushvalue(L, FLOWLUA_HOST_FETCH);
    lua_pushvalue(L, 1);
    lua_pushvalue(L, 2);
    lua_call(L, 2, 2);
    if (lua_isnil(L, 5)) {
        lua_settop(L, 6);
        return flowlua_host_raise(L);
    }
    lua_settop(L, 5);
    if (!lua_isnil(L, 3)) {
        if (lua_isnil(L, 4)) luaL_error(L, "bad argument #4 to 'getResource' (a key is needed with an object)");
        lua_pushvalue(L, 3);
        if (lua_rawget(L, FLOWLUA_HOST_ASSOCIATIONS) == LUA_TNIL) {
            lua_pop(L, 1);
            lua_newtable(L);
            lua_pushvalue(L, 3);
            lua_pushvalue(L, -2);
            lua_rawset(L, FLOWLUA_HOST_ASSOCIATIONS);
        }
        lua_pushvalue(L, 4);
        lua_createtable(L, 2, 0);
        lua_pushvalue(L, 1);
        lua_rawseti(L, -2, 1);
        lua_pushvalue(L, 2);
        lua_rawseti(L, -2, 2);
        lua_rawset(L, -3);
        lua_pop(L, 1);
        lua_pushvalue(L, 4);
        lua_pushvalue(L, 5);
        lua_settable(L, 3);
    }
    lua_settop(L, 5);
    return 1;
}

/// `target[1][target[2]] = target[3]` (stack: target), run under lua_pcall by redeliver.
static int flowlua_redeliver_one(lua_State *L) {
    lua_rawgeti(L, 1, 1);
    lua_rawgeti(L, 1, 2);
    lua_rawgeti(L, 1, 3);
    lua_settable(L, -3);
    return 0;
}

/// `redeliver(name, type, content)`: assigns `content` again to every association with that
/// resource; returns how many there were. Every assignment is tried; the failures are raised
/// together afterwards, one per line.
static int flowlua_redeliver(lua_State *L) {
    lua_settop(L, 3);
    lua_newtable(L); /* 4: the targets, { object, key, content } each */
    lua_Integer count = 0;
    lua_pushnil(L);
    while (lua_next(L, FLOWLUA_HOST_ASSOCIATIONS)) { /* object fields */
        lua_pushnil(L);
        while (lua_next(L, -2)) { /* object fields key resource */
            lua_rawgeti(L, -1, 1);
            lua_rawgeti(L, -2, 2);
            int matches = lua_rawequal(L, -2, 1) && lua_rawequal(L, -1, 2);
            lua_pop(L, 3);
            if (matches) {
                lua_createtable(L, 3, 0);
                lua_pushvalue(L, -4);
                lua_rawseti(L, -2, 1);
                lua_pushvalue(L, -2);
                lua_rawseti(L, -2, 2);
                lua_pushvalue(L, 3);
                lua_rawseti(L, -2, 3);
                lua_rawseti(L, 4, ++count);
            }
        }
        lua_pop(L, 1);
    }
    luaL_Buffer failures;
    int failed = 0;
    luaL_buffinit(L, &failures);
    for (lua_Integer i = 1; i <= count; i++) {
        lua_pushcfunction(L, flowlua_redeliver_one);
        lua_rawgeti(L, 4, i);
        if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
            luaL_tolstring(L, -1, NULL);
            lua_remove(L, -2);
            if (failed++) { /* the buffer's box stays below: add "\n" and the text as one value */
                lua_pushliteral(L, "\n");
                lua_insert(L, -2);
                lua_concat(L, 2);
            }
            luaL_addvalue(&failures);
        }
    }
    if (failed) {
        luaL_pushresult(&failures);
        return lua_error(L);
    }
    lua_pushinteger(L, count);
    return 1;
}

/// `addMessageHandler(message, handler)` or `addMessageHandler(message, object, method)`.
static int flowlua_add_message_handler(lua_State *L) {
    lua_settop(L, 3);
    flowlua_host_check(L, 1, LUA_TSTRING, "addMessageHandler");
    if (!lua_isnil(L, 3)) {
        flowlua_host_check(L, 3, LUA_TSTRING, "addMessageHandler");
    } else {
        flowlua_host_check(L, 2, LUA_TFUNCTION, "addMessageHandler");
    }
    lua_pushvalue(L, 1);
    if (lua_rawget(L, FLOWLUA_HOST_HANDLERS) == LUA_TNIL) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, 1);
        lua_pushvalue(L, -2);
        lua_rawset(L, FLOWLUA_HOST_HANDLERS);
    }
    lua_createtable(L, 2, 0);
    lua_pushvalue(L, 2);
    lua_rawseti(L, -2, 1);
    lua_pushvalue(L, 3);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
    return 0;
}

/// `removeMessageHandler(message, handler [, method])`: every matching entry (`==`, as Lua
/// compares), the last first.
static int flowlua_remove_message_handler(lua_State *L) {
    lua_settop(L, 3);
    lua_pushvalue(L, 1);
    if (lua_rawget(L, FLOWLUA_HOST_HANDLERS) == LUA_TNIL) return 0;
    lua_Integer count = (lua_Integer)lua_rawlen(L, 4);
    for (lua_Integer i = count; i >= 1; i--) {
        lua_rawgeti(L, 4, i);
        lua_rawgeti(L, -1, 1);
        int matches = lua_compare(L, -1, 2, LUA_OPEQ);
        lua_pop(L, 1);
        if (matches && !lua_isnil(L, 3)) {
            lua_rawgeti(L, -1, 2);
            matches = lua_compare(L, -1, 3, LUA_OPEQ);
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
        if (matches) { /* table.remove(list, i) */
            lua_Integer size = (lua_Integer)lua_rawlen(L, 4);
            for (lua_Integer at = i; at < size; at++) {
                lua_rawgeti(L, 4, at + 1);
                lua_rawseti(L, 4, at);
            }
            lua_pushnil(L);
            lua_rawseti(L, 4, size > i ? size : i);
        }
    }
    return 0;
}

/// Delivers the message (stack: message, arguments..., the snapshot of its handlers) to the
/// handlers from number `next` on, then to the host. A handler may yield: the delivery goes on
/// where it was when the coroutine resumes (this is then the continuation of its call).
static int flowlua_post_message_from(lua_State *L, int status, lua_KContext next) {
    (void)status;
    int snapshot = lua_gettop(L);
    int arguments = snapshot - 2; /* after the message */
    for (lua_Integer i = (lua_Integer)next;; i++) {
        /* the snapshot stays on top between calls (a call leaves nothing) */
        if (lua_rawgeti(L, snapshot, i) == LUA_TNIL) {
            lua_pop(L, 1);
            break;
        }
        lua_rawgeti(L, -1, 1); /* target */
        lua_rawgeti(L, -2, 2); /* method */
        lua_remove(L, -3);
        int callArguments = arguments;
        if (!lua_isnil(L, -1)) {
            lua_gettable(L, -2); /* target[method] */
            lua_insert(L, -2);   /* function, target (as self) */
            callArguments++;
        } else {
            lua_pop(L, 1);
        }
        luaL_checkstack(L, arguments, "too many arguments");
        for (int a = 2; a < snapshot; a++) lua_pushvalue(L, a);
        lua_callk(L, callArguments, 0, (lua_KContext)(i + 1), flowlua_post_message_from);
    }
    lua_pop(L, 1);
    lua_pushvalue(L, FLOWLUA_HOST_NOTIFY);
    lua_insert(L, 1);
    lua_call(L, arguments + 1, 0);
    return 0;
}

/// `postMessage(message, ...)`: calls each handler of `message` (handlers added meanwhile wait
/// for the next message) with the arguments, `object[method](object, ...)` for a method, then
/// hands the message to the host.
static int flowlua_post_message(lua_State *L) {
    flowlua_host_check(L, 1, LUA_TSTRING, "postMessage");
    lua_pushvalue(L, 1);
    if (lua_rawget(L, FLOWLUA_HOST_HANDLERS) == LUA_TNIL) {
        lua_pop(L, 1);
        lua_newtable(L);
    } else { /* a snapshot */
        lua_Integer count = (lua_Integer)lua_rawlen(L, -1);
        lua_createtable(L, count > 0 && count < 1 << 24 ? (int)count : 0, 0);
        for (lua_Integer i = 1; i <= count; i++) {
            lua_rawgeti(L, -2, i);
            lua_rawseti(L, -2, i);
        }
        lua_remove(L, -2);
    }
    return flowlua_post_message_from(L, LUA_OK, 1);
}

/// Installs the host API (a lua_CFunction, called with fetch and notifyHost): the globals
/// getResource, addMessageHandler, removeMessageHandler and postMessage. Returns postMessage
/// and redeliver, for the host to call.
int flowlua_install_host_api(lua_State *L) {
    lua_settop(L, 2);
    lua_newtable(L); /* 3: associations */
    lua_createtable(L, 0, 1);
    lua_pushliteral(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_newtable(L); /* 4: handlers */
    static const struct {
        const char *global;
        lua_CFunction function;
    } functions[] = {
        {"getResource", flowlua_get_resource},
        {"addMessageHandler", flowlua_add_message_handler},
        {"removeMessageHandler", flowlua_remove_message_handler},
        {"postMessage", flowlua_post_message},
    };
    for (size_t i = 0; i < sizeof functions / sizeof functions[0]; i++) {
        for (int u = 1; u <= 4; u++) lua_pushvalue(L, u);
        lua_pushcclosure(L, functions[i].function, 4);
        if (functions[i].function == flowlua_post_message) lua_pushvalue(L, -1);
        lua_setglobal(L, functions[i].global);
    }
    for (int u = 1; u <= 4; u++) lua_pushvalue(L, u);
    lua_pushcclosure(L, flowlua_redeliver, 4);
    return 2;
}

#undef FLOWLUA_HOST_FETCH
#undef FLOWLUA_HOST_NOTIFY
#undef FLOWLUA_HOST_ASSOCIATIONS
#undef FLOWLUA_HOST_HANDLERS

