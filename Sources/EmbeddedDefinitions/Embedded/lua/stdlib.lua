---@meta

-- Lua 5.4's standard library (after its reference manual), as LuaCATS definitions.

--- Raises an error if v is false or nil; otherwise returns all its arguments.
---@param v any
---@param message? any
---@return any
function assert(v, message) end

--- Controls the garbage collector ("collect", "count", "step", "incremental", "generational", …).
---@param opt? string
---@param arg? integer
---@return any
function collectgarbage(opt, arg) end

--- Runs the file's chunk and returns its results.
---@param filename? string
---@return any ...
function dofile(filename) end

--- Raises an error with message as the error object.
---@param message any
---@param level? integer
function error(message, level) end

--- Returns the metatable of object (or its __metatable field).
---@param object any
---@return table?
function getmetatable(object) end

--- Iterates over t[1], t[2], … up to the first nil.
---@param t any
---@return fun(t: table, i: integer): integer, any
---@return table
---@return integer
function ipairs(t) end

--- Loads a chunk from a string or a function, without running it.
---@param chunk string|function
---@param chunkname? string
---@param mode? string
---@param env? table
---@return function?
---@return string?
function load(chunk, chunkname, mode, env) end

--- Loads a chunk from a file, without running it.
---@param filename? string
---@param mode? string
---@param env? table
---@return function?
---@return string?
function loadfile(filename, mode, env) end

--- Returns the next key of table after index, and its value.
---@param table table
---@param index? any
---@return any
---@return any
function next(table, index) end

--- Iterates over every key and value of t (or its __pairs).
---@param t table
---@return fun(t: table, k?: any): any, any
---@return table
---@return nil
function pairs(t) end

--- Calls f in protected mode: true and its results, or false and the error.
---@param f any
---@param ... any
---@return boolean
---@return any ...
function pcall(f, ...) end

--- Writes its arguments to the standard output, converted by tostring and separated by tabs.
---@param ... any
function print(...) end

--- Whether v1 equals v2, without __eq.
---@param v1 any
---@param v2 any
---@return boolean
function rawequal(v1, v2) end

--- table[index], without __index.
---@param table table
---@param index any
---@return any
function rawget(table, index) end

--- The length of v, without __len.
---@param v table|string
---@return integer
function rawlen(v) end

--- Sets table[index] = value, without __newindex.
---@param table table
---@param index any
---@param value any
---@return table
function rawset(table, index, value) end

--- Loads the module modname and returns its value.
---@param modname string
---@return any
---@return any
function require(modname) end

--- The arguments after index, or their count with "#".
---@param index integer|string
---@param ... any
---@return any ...
function select(index, ...) end

--- Sets the metatable of table and returns table.
---@param table table
---@param metatable table?
---@return table
function setmetatable(table, metatable) end

--- Converts e to a number, or returns nil.
---@param e any
---@param base? integer
---@return number?
function tonumber(e, base) end

--- Converts v to a string (or calls its __tostring).
---@param v any
---@return string
function tostring(v) end

--- The type of v as a string: "nil", "number", "string", "boolean", "table", "function", "thread", "userdata".
---@param v any
---@return string
function type(v) end

--- Calls f in protected mode with msgh as the message handler.
---@param f any
---@param msgh function
---@param ... any
---@return boolean
---@return any ...
function xpcall(f, msgh, ...) end

--- Emits a warning made of its arguments.
---@param msg1 string
---@param ... string
function warn(msg1, ...) end

--- The version of Lua: "Lua 5.4".
---@type string
_VERSION = "Lua 5.4"

--- The global environment.
---@type table
_G = {}

--- Lua 5.4's string library.
string = {}

--- The numeric codes of the characters s[i] to s[j].
---@param s string
---@param i? integer
---@param j? integer
---@return integer ...
function string.byte(s, i, j) end

--- A string of the characters with these numeric codes.
---@param ... integer
---@return string
function string.char(...) end

--- The binary chunk of a function.
---@param f function
---@param strip? boolean
---@return string
function string.dump(f, strip) end

--- Finds the first match of pattern in s: its start, end and captures.
---@param s string
---@param pattern string
---@param init? integer
---@param plain? boolean
---@return integer?
---@return integer?
---@return any ...
function string.find(s, pattern, init, plain) end

--- A formatted string, as C's sprintf (%d, %s, %q, %x, %f, …).
---@param formatstring string
---@param ... any
---@return string
function string.format(formatstring, ...) end

--- An iterator over the matches of pattern in s.
---@param s string
---@param pattern string
---@param init? integer
---@return fun(): string, any ...
function string.gmatch(s, pattern, init) end

--- A copy of s with the matches of pattern replaced, and their count.
---@param s string
---@param pattern string
---@param repl string|table|function
---@param n? integer
---@return string
---@return integer
function string.gsub(s, pattern, repl, n) end

--- The length of s in bytes.
---@param s string
---@return integer
function string.len(s) end

--- A copy of s in lower case.
---@param s string
---@return string
function string.lower(s) end

--- The captures of the first match of pattern in s.
---@param s string
---@param pattern string
---@param init? integer
---@return any ...
function string.match(s, pattern, init) end

--- The values packed in a binary string by the format fmt.
---@param fmt string
---@param ... any
---@return string
function string.pack(fmt, ...) end

--- The size of a string packed by fmt.
---@param fmt string
---@return integer
function string.packsize(fmt) end

--- n copies of s, separated by sep.
---@param s string
---@param n integer
---@param sep? string
---@return string
function string.rep(s, n, sep) end

--- s reversed.
---@param s string
---@return string
function string.reverse(s) end

--- The substring of s from i to j.
---@param s string
---@param i integer
---@param j? integer
---@return string
function string.sub(s, i, j) end

--- The values packed in s by the format fmt.
---@param fmt string
---@param s string
---@param pos? integer
---@return any ...
function string.unpack(fmt, s, pos) end

--- A copy of s in upper case.
---@param s string
---@return string
function string.upper(s) end

--- Lua 5.4's table library.
table = {}

--- list[i] .. sep .. list[i+1] … list[j].
---@param list table
---@param sep? string
---@param i? integer
---@param j? integer
---@return string
function table.concat(list, sep, i, j) end

--- Inserts value at pos in list (at the end without pos).
---@param list table
---@param pos any
---@param value? any
function table.insert(list, pos, value) end

--- Moves a1[f..e] to a2[t..].
---@param a1 table
---@param f integer
---@param e integer
---@param t integer
---@param a2? table
---@return table
function table.move(a1, f, e, t, a2) end

--- A table of the arguments, with n their count.
---@param ... any
---@return table
function table.pack(...) end

--- Removes and returns list[pos] (the last element without pos).
---@param list table
---@param pos? integer
---@return any
function table.remove(list, pos) end

--- Sorts list in place, by comp or <.
---@param list table
---@param comp? fun(a: any, b: any): boolean
function table.sort(list, comp) end

--- list[i], …, list[j].
---@param list table
---@param i? integer
---@param j? integer
---@return any ...
function table.unpack(list, i, j) end

--- Lua 5.4's mathematical functions.
math = {}

--- π.
---@type number
math.pi = nil

--- A value larger than any number (inf).
---@type number
math.huge = nil

--- The largest integer.
---@type integer
math.maxinteger = nil

--- The smallest integer.
---@type integer
math.mininteger = nil

--- The absolute value of x.
---@param x number
---@return number
function math.abs(x) end

--- The arc cosine of x, in radians.
---@param x number
---@return number
function math.acos(x) end

--- The arc sine of x, in radians.
---@param x number
---@return number
function math.asin(x) end

--- The arc tangent of y/x, in radians.
---@param y number
---@param x? number
---@return number
function math.atan(y, x) end

--- The smallest integer not less than x.
---@param x number
---@return integer
function math.ceil(x) end

--- The cosine of x, in radians.
---@param x number
---@return number
function math.cos(x) end

--- x radians in degrees.
---@param x number
---@return number
function math.deg(x) end

--- e to the power x.
---@param x number
---@return number
function math.exp(x) end

--- The largest integer not greater than x.
---@param x number
---@return integer
function math.floor(x) end

--- The remainder of x / y, rounded towards zero.
---@param x number
---@param y number
---@return number
function math.fmod(x, y) end

--- The logarithm of x in base (e by default).
---@param x number
---@param base? number
---@return number
function math.log(x, base) end

--- The largest argument.
---@param x number
---@param ... number
---@return number
function math.max(x, ...) end

--- The smallest argument.
---@param x number
---@param ... number
---@return number
function math.min(x, ...) end

--- The integral and fractional parts of x.
---@param x number
---@return number
---@return number
function math.modf(x) end

--- x degrees in radians.
---@param x number
---@return number
function math.rad(x) end

--- A pseudo-random number: in [0,1), [1,m] or [m,n].
---@param m? integer
---@param n? integer
---@return number
function math.random(m, n) end

--- Seeds the pseudo-random generator.
---@param x? integer
---@param y? integer
function math.randomseed(x, y) end

--- The sine of x, in radians.
---@param x number
---@return number
function math.sin(x) end

--- The square root of x.
---@param x number
---@return number
function math.sqrt(x) end

--- The tangent of x, in radians.
---@param x number
---@return number
function math.tan(x) end

--- x as an integer, or nil when it has none.
---@param x any
---@return integer?
function math.tointeger(x) end

--- "integer", "float", or nil when x is no number.
---@param x any
---@return string?
function math.type(x) end

--- Whether m < n as unsigned integers.
---@param m integer
---@param n integer
---@return boolean
function math.ult(m, n) end

--- Lua 5.4's operating system facilities.
os = {}

--- The CPU time used by the program, in seconds.
---@return number
function os.clock() end

--- The date and time, formatted (or as a table with "*t").
---@param format? string
---@param time? integer
---@return string|table
function os.date(format, time) end

--- t2 - t1 in seconds.
---@param t2 integer
---@param t1 integer
---@return number
function os.difftime(t2, t1) end

--- Runs a shell command.
---@param command? string
---@return boolean?
---@return string
---@return integer
function os.execute(command) end

--- Ends the program.
---@param code? boolean|integer
---@param close? boolean
function os.exit(code, close) end

--- The value of an environment variable.
---@param varname string
---@return string?
function os.getenv(varname) end

--- Deletes a file or empty folder.
---@param filename string
---@return boolean?
---@return string?
function os.remove(filename) end

--- Renames a file or folder.
---@param oldname string
---@param newname string
---@return boolean?
---@return string?
function os.rename(oldname, newname) end

--- Sets the program's locale.
---@param locale? string
---@param category? string
---@return string?
function os.setlocale(locale, category) end

--- The current time, or the time of date.
---@param date? table
---@return integer
function os.time(date) end

--- A name usable for a temporary file.
---@return string
function os.tmpname() end

--- Lua 5.4's input and output library.
io = {}

--- The standard input file.
---@type any
io.stdin = nil

--- The standard output file.
---@type any
io.stdout = nil

--- The standard error file.
---@type any
io.stderr = nil

--- Closes file, or the default output file.
---@param file? any
---@return boolean?
---@return string?
function io.close(file) end

--- Flushes the default output file.
function io.flush() end

--- Sets or returns the default input file.
---@param file? any
---@return any
function io.input(file) end

--- An iterator over the lines of a file.
---@param filename? string
---@param ... any
---@return fun(): any ...
function io.lines(filename, ...) end

--- Opens a file in mode ("r", "w", "a", "rb", …).
---@param filename string
---@param mode? string
---@return any
---@return string?
function io.open(filename, mode) end

--- Sets or returns the default output file.
---@param file? any
---@return any
function io.output(file) end

--- Starts prog and returns a file of its input or output.
---@param prog string
---@param mode? string
---@return any
---@return string?
function io.popen(prog, mode) end

--- Reads the default input file by the formats given.
---@param ... any
---@return any ...
function io.read(...) end

--- A temporary file, removed when the program ends.
---@return any
function io.tmpfile() end

--- "file", "closed file", or nil when obj is no file.
---@param obj any
---@return string?
function io.type(obj) end

--- Writes its arguments to the default output file.
---@param ... string|number
---@return any
function io.write(...) end

--- Lua 5.4's coroutines.
coroutine = {}

--- Closes a suspended or dead coroutine.
---@param co thread
---@return boolean
---@return any
function coroutine.close(co) end

--- A new coroutine running f.
---@param f function
---@return thread
function coroutine.create(f) end

--- Whether the coroutine can yield.
---@param co? thread
---@return boolean
function coroutine.isyieldable(co) end

--- Starts or continues co.
---@param co thread
---@param ... any
---@return boolean
---@return any ...
function coroutine.resume(co, ...) end

--- The running coroutine, and whether it is the main one.
---@return thread
---@return boolean
function coroutine.running() end

--- "running", "suspended", "normal" or "dead".
---@param co thread
---@return string
function coroutine.status(co) end

--- A function that resumes a new coroutine running f.
---@param f function
---@return function
function coroutine.wrap(f) end

--- Suspends the running coroutine.
---@param ... any
---@return any ...
function coroutine.yield(...) end

--- Lua 5.4's UTF-8 library.
utf8 = {}

--- The pattern of one UTF-8 character.
---@type string
utf8.charpattern = nil

--- The UTF-8 encoding of the code points.
---@param ... integer
---@return string
function utf8.char(...) end

--- The code points of s[i..j].
---@param s string
---@param i? integer
---@param j? integer
---@param lax? boolean
---@return integer ...
function utf8.codepoint(s, i, j, lax) end

--- An iterator over the code points of s.
---@param s string
---@param lax? boolean
---@return fun(s: string, i: integer): integer, integer
---@return string
---@return integer
function utf8.codes(s, lax) end

--- The number of code points in s[i..j].
---@param s string
---@param i? integer
---@param j? integer
---@param lax? boolean
---@return integer?
---@return integer?
function utf8.len(s, i, j, lax) end

--- The byte position of the n-th code point.
---@param s string
---@param n integer
---@param i? integer
---@return integer?
function utf8.offset(s, n, i) end

--- Lua 5.4's debug library (each function may take a coroutine first: its parameters are untyped).
debug = {}

--- A traceback of the call stack.
---@param thread? any a coroutine, or the message
---@param message? any the message, or the level
---@param level? any
---@return string
function debug.traceback(thread, message, level) end

--- Information about a function or a stack level.
---@param f any
---@param what? any
---@return table?
function debug.getinfo(f, what) end

--- Sets a hook function.
---@param hook? any
---@param mask? any
---@param count? any
function debug.sethook(hook, mask, count) end

--- The current hook settings.
---@return function?
---@return string
---@return integer
function debug.gethook() end

--- The name and value of a local variable.
---@param f any
---@param index any
---@return string?
---@return any
function debug.getlocal(f, index) end

--- The metatable of value, ignoring __metatable.
---@param value any
---@return table?
function debug.getmetatable(value) end

--- The registry table.
---@return table
function debug.getregistry() end

--- The name and value of an upvalue.
---@param f any
---@param up any
---@return string?
---@return any
function debug.getupvalue(f, up) end

--- Sets the metatable of value.
---@param value any
---@param meta any
---@return any
function debug.setmetatable(value, meta) end

--- A unique id of an upvalue.
---@param f any
---@param n any
---@return any
function debug.upvalueid(f, n) end

--- Lua 5.4's module loading.
package = {}

--- Where require looks for Lua modules.
---@type string
package.path = nil

--- Where require looks for C modules.
---@type string
package.cpath = nil

--- The modules already loaded, by name.
---@type table
package.loaded = nil

--- Loaders of modules, by name.
---@type table
package.preload = nil

--- The functions require searches with.
---@type table
package.searchers = nil

--- The package's compile-time configuration.
---@type string
package.config = nil
