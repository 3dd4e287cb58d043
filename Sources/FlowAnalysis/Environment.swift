/// What a host provides to a project's Lua code: the globals it defines and the modules
/// `require` finds without the project (standard library, SDK bindings). Named by the
/// project file's `environment` key; extended by its `globals` and `externalModules`.
public struct Environment: Sendable, Equatable {
    /// The name the project file uses (`lua`, `codeflow-ios`).
    public let name: String
    /// Global names the host defines before any module runs.
    public private(set) var globals: Set<String>
    /// Module names `require` finds in the host.
    public private(set) var modules: Set<String>
    /// Modules whose first dotted component is one of these are the host's (`UIKit.UIView`).
    public private(set) var modulePrefixes: Set<String>
    /// Globs (`rspamd_*`, `*_config`) over global names the host defines.
    public var globalPatterns: [String] { globalGlobs.patterns }
    /// Globs over module names the host provides.
    public var modulePatterns: [String] { moduleGlobs.patterns }
    /// The globs, compiled and indexed once: every read of an undefined global asks them.
    private var globalGlobs = GlobIndex()
    private var moduleGlobs = GlobIndex()

    public init(name: String, globals: Set<String>, modules: Set<String>, modulePrefixes: Set<String> = []) {
        self.name = name
        self.globals = globals
        self.modules = modules
        self.modulePrefixes = modulePrefixes
    }

    /// The environments a project file may name.
    public static let knownNames = ["lua", "codeflow-ios"]

    /// The environment called `name`, or nil when there is none.
    public static func named(_ name: String) -> Environment? {
        switch name {
        case "lua": return .lua
        case "codeflow-ios": return .codeflowIOS
        default: return nil
        }
    }

    /// Whether `require(module)` is satisfied by the host rather than the project.
    public func provides(module: String) -> Bool {
        if modules.contains(module) { return true }
        let first =
            module.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            ?? module
        return modulePrefixes.contains(first) || moduleGlobs.matches(module)
    }

    /// Whether the host defines the global `name`: listed, or matched by a glob.
    public func defines(global name: String) -> Bool {
        globals.contains(name) || globalGlobs.matches(name)
    }

    /// Whether `pattern`, where `*` stands for any run of characters (none too), matches `name`.
    public static func glob(_ pattern: String, matches name: String) -> Bool {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map { Array($0.utf8) }
        let text = Array(name.utf8)
        guard parts.count > 1 else { return parts.first == text }
        guard text.starts(with: parts[0]), text.count >= parts[0].count + parts[parts.count - 1].count,
            text.reversed().starts(with: parts[parts.count - 1].reversed())
        else { return false }
        var index = parts[0].count
        let end = text.count - parts[parts.count - 1].count
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            var found = false
            while index + part.count <= end {
                if text[index..<(index + part.count)].elementsEqual(part) {
                    index += part.count
                    found = true
                    break
                }
                index += 1
            }
            if !found { return false }
        }
        return true
    }

    /// This environment plus a project's own `globals` and `externalModules`. An external
    /// module written `name.*` covers `name` and every `name.sub` module; any other `*` in an
    /// entry is a glob (`rspamd_*`, `*_config`), standing for any run of characters.
    /// `many` are globals given as a set (a `.luacheckrc`'s 500,000): the larger set is copied
    /// and the smaller inserted into it, rather than each name hashed again (issue 43).
    public func extended(
        globals extraGlobals: [String], many: Set<String> = [], externalModules: [String]
    ) -> Environment {
        var copy = self
        let globs = many.filter { $0.utf8.contains(0x2A) }
        let plain = globs.isEmpty ? many : many.subtracting(globs)
        copy.globals = plain.count > globals.count ? plain.union(globals) : globals.union(plain)
        for global in globs { copy.globalGlobs.insert(global) }
        for global in extraGlobals {
            if global.utf8.contains(0x2A) { copy.globalGlobs.insert(global) } else { copy.globals.insert(global) }
        }
        for module in externalModules {
            if module.hasSuffix(".*"), !module.dropLast(2).contains("*") {
                let prefix = String(module.dropLast(2))
                copy.modules.insert(prefix)
                copy.modulePrefixes.insert(prefix)
            } else if module.contains("*") {
                copy.moduleGlobs.insert(module)
            } else {
                copy.modules.insert(module)
            }
        }
        return copy
    }

    /// Lua 5.4's standard library globals.
    public static let standardGlobals: Set<String> = [
        "_G", "_VERSION", "assert", "collectgarbage", "dofile", "error", "getmetatable", "ipairs", "load",
        "loadfile", "next", "pairs", "pcall", "print", "rawequal", "rawget", "rawlen", "rawset", "require",
        "select", "setmetatable", "tonumber", "tostring", "type", "xpcall", "warn",
        "coroutine", "debug", "io", "math", "os", "package", "string", "table", "utf8", "arg",
    ]

    /// Globals of Lua 5.1 and LuaJIT that Lua 5.4 no longer has, with what to use instead.
    public static let legacyGlobals: [String: String] = [
        "unpack": "it was removed in Lua 5.2: use table.unpack",
        "loadstring": "it was removed in Lua 5.2: use load",
        "setfenv": "it was removed in Lua 5.2: give the function an _ENV upvalue, or load(code, name, \"t\", env)",
        "getfenv": "it was removed in Lua 5.2: use the _ENV upvalue",
        "module": "it was removed in Lua 5.2: return the module's table instead",
        "newproxy": "it was removed in Lua 5.2: use setmetatable on a table",
        "gcinfo": "it was removed in Lua 5.2: use collectgarbage(\"count\")",
        "bit32": "it was removed in Lua 5.3: use Lua 5.4's bitwise operators (&, |, ~, <<, >>)",
        "bit": "LuaJIT's bit library: use Lua 5.4's bitwise operators (&, |, ~, <<, >>)",
        "jit": "it exists only under LuaJIT: test it first (if jit then ... end)",
    ]

    /// The standard library's modules, as `require` finds them in `package.loaded`.
    public static let standardModules: Set<String> = [
        "_G", "coroutine", "debug", "io", "math", "os", "package", "string", "table", "utf8",
    ]

    /// flowpkg's runtime API, which every flowpkg host defines.
    public static let runtimeGlobals: Set<String> = ["getResource", "addMessageHandler", "postMessage"]

    /// Plain Lua 5.4 hosted by flowpkg.
    public static let lua = Environment(
        name: "lua", globals: standardGlobals.union(runtimeGlobals), modules: standardModules)

    /// A CodeFlow iOS host: Lua plus the Objective-C bridge and the iOS SDK bindings.
    public static let codeflowIOS = Environment(
        name: "codeflow-ios",
        globals: standardGlobals.union(runtimeGlobals).union(["objc", "class", "property", "struct", "enum"]),
        modules: standardModules,
        modulePrefixes: appleFrameworks)

    /// Apple SDK frameworks whose bindings a CodeFlow host loads with `require "Framework.Header"`.
    public static let appleFrameworks: Set<String> = [
        "Accelerate", "Accounts", "AddressBook", "AddressBookUI", "AdSupport", "ARKit", "AssetsLibrary",
        "AudioToolbox", "AuthenticationServices", "AVFAudio", "AVFoundation", "AVKit", "BackgroundTasks",
        "CallKit", "CFNetwork", "CloudKit", "Contacts", "ContactsUI", "CoreAnimation", "CoreAudio",
        "CoreAudioKit", "CoreBluetooth", "CoreData", "CoreFoundation", "CoreGraphics", "CoreHaptics",
        "CoreImage", "CoreLocation", "CoreMedia", "CoreMIDI", "CoreML", "CoreMotion", "CoreNFC",
        "CoreServices", "CoreSpotlight", "CoreTelephony", "CoreText", "CoreVideo", "EventKit", "EventKitUI",
        "ExternalAccessory", "FileProvider", "Foundation", "GameController", "GameKit", "GameplayKit",
        "GLKit", "HealthKit", "HomeKit", "iAd", "ImageIO", "Intents", "IntentsUI", "JavaScriptCore",
        "LocalAuthentication", "MapKit", "MediaPlayer", "MessageUI", "Messages", "Metal", "MetalKit",
        "MetalPerformanceShaders", "MobileCoreServices", "ModelIO", "MultipeerConnectivity", "NaturalLanguage",
        "Network", "NetworkExtension", "NotificationCenter", "OpenGLES", "PassKit", "PDFKit", "Photos",
        "PhotosUI", "PushKit", "QuartzCore", "QuickLook", "ReplayKit", "SafariServices", "SceneKit",
        "Security", "Social", "Speech", "SpriteKit", "StoreKit", "SystemConfiguration", "Twitter",
        "UIKit", "UniformTypeIdentifiers", "UserNotifications", "UserNotificationsUI", "VideoToolbox",
        "Vision", "WatchConnectivity", "WebKit", "WidgetKit",
    ]
}
