---@meta

--- The Objective-C bridge: classes by name (`objc.UIView`) and runtime helpers.
---@type table
objc = {}

--- Creates a Lua class, or extends an Objective-C one: `class.createClass("Name", Parent)`.
---@type table
class = {}

--- Declares a property of a class.
---@type table
property = {}

--- C structures of the SDK (`struct.CGRect`).
---@type table
struct = {}

--- C enumerations of the SDK (`enum.UIViewContentMode`).
---@type table
enum = {}
