/// Lua that stands in for flowpkg's host API under stock `lua5.4`, so a sample's output can be
/// compared with what `flowpkg run` prints. `arg[1]` is the project folder.
public enum StockLuaHost {
    /// Runs `startModule` of the project at `arg[1]`, reading resources from its folder.
    public static func script(startModule: String) -> String {
        """
        local root = arg[1]
        package.path = root .. "/Sources/?.lua"
        function getResource(name, type, object, key)
            local file = assert(io.open(root .. "/Resources/" .. name .. "." .. type, "rb"))
            local content = file:read("a")
            file:close()
            if object then object[key] = content end
            return content
        end
        function addMessageHandler(name, handler) end
        require "\(startModule)"
        """
    }
}
