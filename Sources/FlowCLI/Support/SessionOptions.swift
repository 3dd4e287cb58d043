import ArgumentParser
import FlowLiveServer
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What `serve` and `dev` share about the log and the session page.
struct SessionOptions: ParsableArguments {
    @Flag(help: "Also print one line per HTTP request the live source answers.")
    var verbose = false

    @Option(
        help: ArgumentHelp(
            "Where the session page's file:line links go: vscode (the default), idea, a URL with {path}, {line} and {column}, or a command this machine runs, such as 'code -g' or 'nvim --server /tmp/nvim.sock --remote +{line} {path}' (default: $FLOWPKG_EDITOR).",
            valueName: "setting"))
    var editor: String?

    func validate() throws {
        if let editor, EditorLinks(setting: editor) == nil {
            throw ValidationError("--editor takes vscode, idea, a URL template or a command, not an empty value")
        }
    }

    /// The links the page makes: --editor, else $FLOWPKG_EDITOR, else VS Code's.
    var editorLinks: EditorLinks {
        if let editor, let links = EditorLinks(setting: editor) { return links }
        if let setting = ProcessInfo.processInfo.environment["FLOWPKG_EDITOR"],
            let links = EditorLinks(setting: setting)
        {
            return links
        }
        return .vscode
    }
}
