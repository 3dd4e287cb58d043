import FlowLua
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// luacov's `.luacov` file, as far as `--coverage` uses it: the `include` and `exclude` lists of
/// Lua patterns that choose which modules are counted. Evaluated by FlowLua's `LuaSandbox` (its
/// globals, or the table it returns, as luacov reads either), so a file that loops is stopped.
public struct LuacovConfiguration: Sendable, Equatable {
    public static let fileName = ".luacov"

    /// Patterns a module's path (without `.lua`) must match one of; every module when empty.
    public var include: [String] = []
    /// Patterns whose matches are left out.
    public var exclude: [String] = []

    public init(include: [String] = [], exclude: [String] = []) {
        self.include = include
        self.exclude = exclude
    }

    /// What `.luacov` in `root` says; nil when there is none.
    public static func read(inProject root: String) throws(TestSetupError) -> LuacovConfiguration? {
        let path = root + "/" + fileName
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let result: LuaSandbox.Result
        do {
            result = try LuaSandbox().evaluate(fileAt: path, name: fileName)
        } catch {
            throw .configuration(file: path, reason: "\(error)")
        }
        // luacov: what the file returns, under what it set as globals.
        var fields = result.globals
        if case .table(let returned) = result.returned { fields.merge(returned) { global, _ in global } }
        func list(_ key: String) throws(TestSetupError) -> [String] {
            switch fields[key] {
            case nil, .nil?: return []
            case .array(let items)?: return items.compactMap(\.stringValue)
            case .table(let items)? where items.isEmpty: return []
            default:
                throw .configuration(file: path, reason: "'\(key)' must be a list of Lua patterns, like { \"src/\" }")
            }
        }
        return LuacovConfiguration(include: try list("include"), exclude: try list("exclude"))
    }

    /// The paths of `modules` (relative to the project folder) luacov would count, in order.
    public func included(_ modules: [String]) throws(TestSetupError) -> [String] {
        guard !include.isEmpty || !exclude.isEmpty else { return modules }
        func list(_ values: [String]) -> LuaValue { .array(values.map { .string($0) }) }
        let result: LuaValue
        do {
            result = try BustedConfiguration.evaluate(["luacov", list(modules), list(include), list(exclude)])
        } catch let error as TestSetupError {
            throw error.located(at: Self.fileName)
        } catch {
            throw .configuration(file: Self.fileName, reason: "\(error)")
        }
        guard case .array(let flags) = result else { return [] }
        return zip(modules, flags).filter { $0.1 == .bool(true) }.map(\.0)
    }
}
