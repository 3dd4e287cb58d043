#ifndef FLOWPKG_CFLOWLUA_H
#define FLOWPKG_CFLOWLUA_H
// The C that flowpkg's Lua layer still needs, and why, one line each (the bodies are in the .c
// files beside this folder; no state lives in this header). Lua's own library functions stay
// Lua's: what flowpkg adds wraps them, or uses the extension points Lua gives (package.searchers,
// hooks, lua_setwarnf, the registry), or runs the stock function itself by its C pointer in the
// wrapper's frame. docs/developing.md's proof command finds no copy of one.
#include <lua.h>
#include <stddef.h>

// --- bridge.c: calls between Swift and Lua ---

/// A Swift function Lua calls through flowlua_trampoline: it returns its result count, or -1
/// after pushing an error value.
typedef int (*flowlua_SwiftFunction)(lua_State *L);
/// Why C: lua_error's longjmp must start in a C frame, never cross a Swift one.
int flowlua_trampoline(lua_State *L);
/// Why C: Swift cannot cast a function pointer to the light userdata Lua stores it in.
void flowlua_pushswiftfunction(lua_State *L, flowlua_SwiftFunction body, int upvalues);
/// Why C: `t[k] = v` with metamethods (stack: t k v) must run under lua_pcall, as a lua_CFunction.
int flowlua_settable_body(lua_State *L);
/// Why C: `t[k]` with metamethods (stack: t k) must run under lua_pcall, as a lua_CFunction.
int flowlua_gettable_body(lua_State *L);
/// Why C: lua.c's msghandler (a lua_CFunction): the message, or its `__tostring`, and a traceback.
int flowlua_traceback_handler(lua_State *L);
/// Why C: a lua_CFunction that calls its first argument with the rest, so that a script run by
/// lua_pcall sits on a C frame (`[C]: in ?`) as lua.c's pmain has it.
int flowlua_call(lua_State *L);
/// Why C: pthread_getattr_np is a GNU extension Swift's Glibc leaves out; the calling thread's
/// stack size in bytes (0 when unknown).
size_t flowlua_thread_stack_size(void);

// --- pool.c: a context's state, its small blocks from a pool of its own ---

#define FLOWLUA_POOL_CLASSES 32 /* 16, 32, ... 512 bytes */
struct flowlua_pool_chunk;
typedef struct {
    void *free[FLOWLUA_POOL_CLASSES];
    struct flowlua_pool_chunk *chunks;
    char *cursor, *end;
} flowlua_pool;
/// Why C: a lua_Alloc runs on every allocation. Measured 2026-11-28 (Benchmarks/README.md,
/// host_launch): a launch takes 47 us with the pool, 59.5 us with luaL_newstate's malloc (the C
/// host: 32 us). lauxlib keeps its panic and warning functions static: these are set the same.
/// Its global table and package.loaded are made at their full size (a ninth of luaL_openlibs).
lua_State *flowlua_newpooledstate(flowlua_pool *pool);
/// Why C: lua_gc is variadic. luaL_openlibs for a pooled state, the collector stopped meanwhile
/// (it frees nothing there) and its first cycle due when the state has doubled (pool.c says why).
void flowlua_pooled_openlibs(lua_State *L);
/// Why C: gives back the pool's chunks after lua_close.
void flowlua_pool_release(flowlua_pool *pool);

// --- budget.c: a bounded state, for Lua flowpkg evaluates on a user's behalf ---

/// What a bounded state may still use, and which bound it passed first (0 none, 1 memory,
/// 2 instructions, 3 time). Held by the allocator's user data, so the hook finds it too.
typedef struct flowlua_budget {
    size_t used, peak, memory_limit;
    long long instructions, instruction_limit;
    double wall_deadline, cpu_deadline, seconds;
    int exceeded;
} flowlua_budget;
/// Why C: a lua_Alloc that refuses to grow past the bound, and a count hook, run inside Lua.
lua_State *flowlua_newboundedstate(flowlua_budget *budget);

// --- interrupt.c: Ctrl-C on a running program, coroutines included ---

/// Why C: a request, from a signal handler or any thread, may only set hooks (as lua.c's handler
/// does); the coroutines running are noted by wrappers around stock `coroutine.resume`/`wrap`.
void flowlua_interrupt_arm(lua_State *L);
/// Why C: async-signal-safe: hooks the armed state's running threads; 0 when none is armed.
int flowlua_interrupt_request(void);
/// Why C: the request's flag lives beside it.
int flowlua_interrupt_happened(void);
/// Why C: no state is armed any more; returns whether a request came.
int flowlua_interrupt_disarm(void);

// --- debug_watch.c: the debugger's hooks, so that a call costs no trip into Swift ---

typedef struct flowlua_debug_watch flowlua_debug_watch;
/// Called for what Swift decides: a watched line about to run, any line of the stepped
/// thread, and a count hook (an interrupt).
typedef void (*flowlua_debug_report)(lua_State *L, lua_Debug *ar);
/// Why C: the hook runs at every call; Swift hears only of the lines it must decide on. A watch
/// reporting to `report`.
flowlua_debug_watch *flowlua_watch_new(flowlua_debug_report report);
/// Why C: the watch's memory is C's (its chunks, lines and per-function facts).
void flowlua_watch_free(flowlua_debug_watch *w);
/// Why C: forgets every chunk and every function's fact, which only the hook reads.
void flowlua_watch_clear(flowlua_debug_watch *w);
/// Why C: the watch the hook reports through (NULL: none), a static of debug_watch.c.
void flowlua_watch_activate(flowlua_debug_watch *w);
/// Why C: adds chunk `name` ("@" + chunk name) with `count` breakpoint lines; 0 when out of memory.
int flowlua_watch_add(flowlua_debug_watch *w, const char *name, const int *lines, int count);
/// Why C: the thread whose every line is reported (NULL: none), read by the hook.
void flowlua_watch_step(flowlua_debug_watch *w, lua_State *L);
/// Why C: sets `L`'s hook mask for the function at `level`, from the per-function facts.
void flowlua_watch_refresh(flowlua_debug_watch *w, lua_State *L, int level);
/// Why C: the hook a coroutine about to be resumed gets (it may predate any breakpoint).
void flowlua_watch_resuming(flowlua_debug_watch *w, lua_State *co);
/// Why C: a count hook at the next instruction (a pause), safe from any thread as lua.c's is.
void flowlua_watch_interrupt(lua_State *L);
/// Why C: removes `L`'s hook, the C function being this file's.
void flowlua_watch_unhook(lua_State *L);

// --- host_api.c: a context's getResource and messages ---

/// Why C: installed at every context start by a few API calls rather than a Lua chunk loaded
/// and run (host_launch); the host's own functions stay Swift.
int flowlua_install_host_api(lua_State *L);

// --- host_loaders.c: what a context serves from its package ---

/// Why C: `loadfile`/`dofile` that read a packaged script, and otherwise run stock Lua's own in
/// their frame (no extra traceback frame), installed without loading a chunk (host_launch).
int flowlua_install_loaders(lua_State *L);
/// Why C: lua_writestring is liblua5.4's compiled-in fwrite to stdout, so stock `print` can write
/// nowhere else; only a host that takes the lines (LuaContext.Options.print) gets this `print`.
int flowlua_install_print(lua_State *L);

// --- require.c: who required whom (live reload of dependents) ---

/// Why C: notes the requirer (even of a module already loaded, which no searcher sees), then runs
/// stock `require` (loadlib.c's ll_require) by its C pointer in this frame, so its messages and
/// tracebacks stay stock Lua's. Upvalues: the package table, chunk -> module name, the notes,
/// stock `require`.
int flowlua_require(lua_State *L);

// --- coverage.c ---

/// Why C: a line hook at every line of the chunks asked for (a Lua hook costs a call a line).
/// `require "flowpkg.coverage"`: line counts of a Lua state.
int flowlua_open_coverage(lua_State *L);

#endif
