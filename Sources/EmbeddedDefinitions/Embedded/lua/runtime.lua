---@meta

--- Returns the content of a resource of the package, by name and type.
--- With a handler, calls it again each time the resource changes at the live source.
---@param name string the resource's name, without its type (`img/logo`)
---@param type string the resource's type (`png`, `txt`)
---@param handler? fun(value: any) called with the resource now and after each change
---@return any
function getResource(name, type, handler) end

--- Registers a handler for a message posted to the context.
---@param handler fun(message: string, ...: any)
---@param message string the message's name
function addMessageHandler(handler, message) end

--- Posts a message to the handlers registered for it.
---@param message string the message's name
---@param ... any its arguments
function postMessage(message, ...) end
