#include <lua.h>
#include <lauxlib.h>
