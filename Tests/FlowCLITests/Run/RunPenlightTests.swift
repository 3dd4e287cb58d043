import FlowTestSupport
import Foundation
import Testing

/// The proof against real code: Debian's penlight, inspect and dkjson, copied into a project,
/// print through `flowpkg run` of the exported package exactly what stock `lua5.4` prints
/// running the same files from a folder.
@Suite struct RunPenlightTests {
    static let library = URL(fileURLWithPath: "/usr/share/lua/5.1")

    static let program = """
        -- Uses penlight, inspect and dkjson as an app would; every line printed is deterministic.
        local tablex = require "pl.tablex"
        local List = require "pl.List"
        local stringx = require "pl.stringx"
        local pretty = require "pl.pretty"
        local class = require "pl.class"
        local OrderedMap = require "pl.OrderedMap"
        local seq = require "pl.seq"
        local utils = require "pl.utils"
        local template = require "pl.template"
        local inspect = require "inspect"
        local json = require "dkjson"

        local words = stringx.split("the quick brown fox jumps over the lazy dog")
        print(#words, stringx.join(",", words))
        local counts = {}
        for _, w in ipairs(words) do counts[w] = (counts[w] or 0) + 1 end
        local keys = tablex.keys(counts)
        table.sort(keys)
        for _, k in ipairs(keys) do io.write(k, "=", counts[k], " ") end
        print()

        local l = List({5, 3, 8, 1}):sort()
        print(l, l:map(function(x) return x * x end), l:reduce("+"))
        print(List.range(1, 10):filter(function(x) return x % 3 == 0 end))

        local Animal = class()
        function Animal:_init(name) self.name = name end
        function Animal:__tostring() return "animal " .. self.name end
        local Dog = class(Animal)
        function Dog:speak() return "woof" end
        local d = Dog("rex")
        print(tostring(d), d:speak(), Dog:class_of(d), Animal:class_of(d))

        local om = OrderedMap()
        om:set("zeta", 1); om:set("alpha", 2); om:set("mid", 3)
        for k, v in om:iter() do io.write(k, ":", v, " ") end
        print()

        print(seq.sum(seq.list({1, 2, 3, 4})), seq.copy(seq.map(function(x) return x + 1 end, {1, 2, 3}))[3])
        print(pretty.write({1, 2, {3, 4}}, ""))
        print(utils.quote_arg("a b"), stringx.title("hello world"), stringx.shorten("abcdefghij", 5))
        print(template.substitute("Hello $(name), $(n) items", {name = "Ada", n = 3}))

        print(inspect({b = 2, a = {1, 2, "x"}, c = {d = true}}))
        print(inspect({1, 2, 3}, {newline = " ", indent = ""}))

        local encoded = json.encode({list = {1, 2, 3}, name = "flow", nested = {ok = true}}, {keyorder = {"name", "list", "nested"}})
        print(encoded)
        local decoded, pos, err = json.decode('{"a": [1, 2, {"b": null}], "c": "\\\\u00e9"}', 1, json.null)
        print(decoded.a[1], decoded.a[3].b == json.null, decoded.c, pos, err)
        print(string.format("%5.2f|%d|%s", math.pi, 42, _VERSION), math.type(1), math.type(1.0), 7 // 2, 2^10)

        """

    @Test func packageRunPrintsWhatStockLuaPrints() throws {
        let fixture = try RunFixture()
        defer { fixture.scratch.remove() }
        let root = try fixture.project("Pen", identifier: "com.example.pen", modules: ["main.lua": Self.program])
        let sources = root.appendingPathComponent("Sources")
        for name in ["pl", "inspect.lua", "dkjson.lua"] {
            try FileManager.default.copyItem(
                at: Self.library.appendingPathComponent(name), to: sources.appendingPathComponent(name))
        }
        let package = try fixture.package(root, to: "Pen.luapkg")

        let stock = Process()
        stock.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        stock.arguments = ["lua5.4", "Sources/main.lua"]
        stock.currentDirectoryURL = root
        stock.environment = [
            "LUA_PATH": "Sources/?.lua;Sources/?/init.lua",
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin",
        ]
        let pipe = Pipe()
        stock.standardOutput = pipe
        try stock.run()
        let expected = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        stock.waitUntilExit()
        #expect(stock.terminationStatus == 0)
        #expect(expected.contains("{\"name\":\"flow\",\"list\":[1,2,3],\"nested\":{\"ok\":true}}"))

        let fromPackage = try FlowpkgProcess.run(["run", package.path, "--identifier", "com.example.pen"])
        #expect(fromPackage.status == 0, "\(fromPackage.stderr)")
        #expect(fromPackage.stdout == expected)
        let fromFolder = try FlowpkgProcess.run(["run", root.path])
        #expect(fromFolder.stdout == expected)
    }
}
