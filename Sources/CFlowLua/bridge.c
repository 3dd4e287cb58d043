// Calls between Swift and Lua (cflowlua.h says why each is C).
#include <lauxlib.h>
#include <pthread.h>
#include "cflowlua.h"

#ifndef __APPLE__
extern int pthread_getattr_np(pthread_t thread, pthread_attr_t *attributes);
#endif

int flowlua_trampoline(lua_State *L) {
    flowlua_SwiftFunction body = (flowlua_SwiftFunction)lua_touserdata(L, lua_upvalueindex(1));
    int results = body(L);
    if (results < 0) return lua_error(L);
    return results;
}

void flowlua_pushswiftfunction(lua_State *L, flowlua_SwiftFunction body, int upvalues) {
    lua_pushlightuserdata(L, (void *)body);
    lua_insert(L, -(upvalues + 1));
    lua_pushcclosure(L, flowlua_trampoline, upvalues + 1);
}

int flowlua_settable_body(lua_State *L) {
    lua_settable(L, 1);
    return 0;
}

int flowlua_gettable_body(lua_State *L) {
    lua_gettable(L, 1);
    return 1;
}

int flowlua_traceback_handler(lua_State *L) {
    const char *message = lua_tostring(L, 1);
    if (message == NULL) {
        if (luaL_callmeta(L, 1, "__tostring") && lua_type(L, -1) == LUA_TSTRING) {
            message = lua_tostring(L, -1);
        } else {
            message = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
        }
    }
    luaL_traceback(L, L, message, 1);
    return 1;
}

int flowlua_call(lua_State *L) {
    lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
    return lua_gettop(L);
}

size_t flowlua_thread_stack_size(void) {
    static _Thread_local size_t known = 0;
    if (known != 0) return known;
#ifdef __APPLE__
    known = pthread_get_stacksize_np(pthread_self());
#else
    pthread_attr_t attributes;
    if (pthread_getattr_np(pthread_self(), &attributes) != 0) return 0;
    size_t size = 0;
    pthread_attr_getstacksize(&attributes, &size);
    pthread_attr_destroy(&attributes);
    known = size;
#endif
    return known;
}
