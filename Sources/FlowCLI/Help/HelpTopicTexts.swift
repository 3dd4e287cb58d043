import FlowDiagnostics

extension HelpTopic {
    /// The codes by range and how to silence a finding, then every code of the catalogue with
    /// its severity and title, generated so that the list cannot drift from the codes emitted.
    static var codesText: String {
        let width = DiagnosticCodes.all.map(\.severity.rawValue.count).max() ?? 0
        let everyCode = DiagnosticCodes.all.map { entry in
            let severity = entry.severity.rawValue
            let padding = String(repeating: " ", count: width - severity.count)
            return "  \(entry.code)  \(severity)\(padding)  \(entry.title)\n"
        }
        return codesSummary + "EVERY CODE\n\n" + everyCode.joined() + "\n"
    }

    static let codesSummary = """
        DIAGNOSTIC CODES

        Diagnostics read `path:line:col: severity: message [FPnnn]`. Exit status 1 means at
        least one error; --strict makes warnings errors too.

          FP101-FP112  flowpkg.json: JSON syntax (with line and column), wrong types, unknown
                       keys (warning), missing keys, invalid identifier, name, version or
                       environment, missing folders, an ignore entry naming another code,
                       links outside the repository (--allow-outside-links) or to system
                       folders, special files or a folder holding the project
          FP201-FP210  modules and resources: invalid names, duplicates, names that differ only
                       by case, missing linked resources, unreadable files, a missing start
                       module, links that escape the project
          FP301-FP314  each module: Lua 5.4 syntax errors (errors in every module, loaded at
                       start or not), binary files, files too large or nested too deep, text
                       that is not UTF-8 (a warning, FP305: Lua runs it as bytes); flowpkg
                       fmt (FP311-FP314): not formatted, invalid StyLua configuration, a file
                       it cannot read or write, a result that would change the meaning
          FP401-FP408  static analysis: unknown require and getResource naming no resource
                       (errors at a module's top level, warnings inside a function, a
                       condition or a pcall: FP402, FP408), require cycles (an error where
                       one loads at start, else FP407), reads of undefined globals (warnings,
                       with "did you mean"), resources no module names (warnings)
          FP409-FP483  lint: each of luacheck's warning classes under a code of its own
                       (globals 111-143, unused 211-241, unused values 311-341, shadowing
                       411-433, control flow 511-582, whitespace and line length 611-631),
                       as luacheck reports them by default (.luacheckrc and -- luacheck:
                       comments apply); FP481: a field a required project module does not
                       have; FP482, FP483: too many or too few arguments to a known function
          FP501-FP506  export: unwritable output (or a folder), an input that cannot be read or
                       changed during export, package limits, a bad SOURCE_DATE_EPOCH,
                       cancelled, an output that would replace a file that is not a package or
                       one of the project's own files (--force allows it)
          FP601-FP606  templates: missing or invalid template.json, Mustache errors, rendered
                       paths that leave the project or collide, a tag naming an undeclared
                       variable
          FP701-FP710  packages (verify, and the reader's refusals): unreadable or not a zip,
                       manifest.json missing or invalid, unsafe, unlisted, missing or repeated
                       entries, size or SHA-256 mismatches, the reader's limits (zip bombs),
                       another identifier, a missing or untrusted signature
          FP801-FP818  dependencies (add, lock, update, vendor, export --locked --offline): a bad
                       entry, a missing or stale flowpkg.lock, a file that differs from the
                       lock, no luarocks, no such rock or version, an unreachable server, C
                       code, a missing path or corrupt package, a module provided twice, path
                       dependencies in a cycle, one dependency name from two places, a rock
                       whose build is more than pure Lua, a symbolic link under vendor/
          FP901-FP910  types (LuaCATS annotations, .luarc.json): a malformed annotation, an
                       argument of the wrong type, too many or too few returns, an unknown
                       class field, a call of a non-function, a ---@type mismatch, a
                       deprecated call, an unreadable .luarc.json, a missing class field

        SILENCING FINDINGS (FP401-FP483 only; the others must be fixed)

          pirnt(x) -- flowpkg: ignore FP405      those codes on this line
          -- flowpkg: ignore FP405, FP402         alone on a line: that line and the next
          -- flowpkg: ignore-file FP405          the whole file (no codes: every code)
          -- luacheck: ignore 212, push, pop     luacheck's own comments, as luacheck reads them
          "ignore": ["FP405", {"code": "FP406", "path": "Resources/runtime/*"}]
                                                 in flowpkg.json: everywhere, or in matching files

        """

    static let packageText = """
        THE .LUAPKG FORMAT

        A .luapkg is a zip archive (unzip -l and bsdtar -tf list it):

          manifest.json   first entry, stored: identifier, name, version, startModule,
                          luaVersion, generator, externalModules, runtimeVersion, and every
                          entry's path, size and SHA-256, plus the package digest
          manifest.sig    second entry, signed packages only: ed25519 PUBLIC-KEY SIGNATURE
          modules/...     Lua modules: module Foo.Bar is modules/Foo/Bar.lua
          resources/...   resources: getResource("img/logo", "png") is resources/img/logo.png
          scripts/...     files loaded by path (dofile, loadfile), named with a dot that
                          require cannot reach: scripts/muc/password.lib.lua

        Entries are sorted by byte order, with fixed times (SOURCE_DATE_EPOCH when set), owner
        0 and fixed permissions: the same project gives the same bytes. Export writes to a
        temporary file and renames it, so a failure never leaves half a package.

        Opening a package reads only the zip directory and the manifest, and refuses it when an
        entry is missing, unlisted, duplicated, unsafe (absolute, .., a symlink) or of another
        size, or the digest is wrong. Each module and resource is checked against its SHA-256
        when it is read, before it is served.

          flowpkg inspect PKG [--list]                   what a package holds
          flowpkg verify PKG [--trusted-key PUB]         every entry checked, and the signature
          flowpkg run PKG --verify-all                   every entry checked before any Lua runs

        The whole story: "The .luapkg format" in the FlowPackage documentation.

        """

    static let updatesText = """
        SIGNED UPDATES

          flowpkg keygen release                         release.key (private) + release.pub
          flowpkg export App -o App-1.1.0.luapkg --sign release.key
          flowpkg verify App-1.1.0.luapkg --trusted-key release.pub
          flowpkg publish App-1.1.0.luapkg --to feed --sign release.key
                                                         feed/index.json + feed/packages/
          flowpkg publish --rollback --identifier ID --to feed --sign release.key

        A host (or flowpkg run --updates FEED --trusted-key PUB) runs a downloaded update only
        when a trusted key signed it, it has the embedded package's identifier and runtime
        version, it is strictly newer (SemVer), no launch of it failed, and the feed has not
        rolled back. Otherwise the embedded package runs. An update that is not confirmed
        healthy before its process ends is marked failed and never runs again.

        Without --apply-now, a download runs from the next start; with it, at once. Feeds are
        read over file://, a folder path or http:// (https:// on Apple platforms only).

        The whole story: "Taking signed updates" in the FlowUpdates documentation.

        """

    static let liveText = """
        LIVE DEVELOPMENT

          flowpkg dev [DIR] [--verbose] [--editor SETTING]
          flowpkg serve [DIR] [--host 127.0.0.1] [--port 7315] [--token T] [--verbose]
          FLOWPKG_LIVE_TOKEN=T flowpkg run App.luapkg --live URL [--watch]
          flowpkg run DIR --watch

        dev is the whole loop on this machine: it serves the project, runs it in a child run
        connected to it, and prints the session page's URL; a save reloads, a save that does
        not validate prints its diagnostics (the program keeps its last good code), and a
        program that ended starts again at the next save; r + Enter starts it afresh at any
        time, and t + Enter runs the project's specs in it (as flowpkg test --live URL does
        against a program that follows serve, the token in FLOWPKG_LIVE_TOKEN). Ctrl-C ends
        both.
        run DIR --watch is the same without the page.

        serve serves the project as it is on disk and pushes every saved change. Every request
        needs the token (printed when generated). It listens on loopback; --host 0.0.0.0 lets a
        device on your network connect and prints this machine's addresses.

        A debug host calls LiveSession.attach(to: context, configuration: .init(url:, token:))
        from FlowLiveDevelopment: the live source serves first, the embedded package serves
        the rest, and each change reloads the changed module and every module that required
        it. If nothing answers within the connection timeout (2 s), the embedded package runs
        and a live source that starts later takes over. A release build compiles none of it.

        The whole story: "Live development from a device" in the FlowLiveDevelopment
        documentation.

        """
}
