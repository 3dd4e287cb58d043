#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import CArchive
    import Darwin
#endif

/// The libarchive functions flowpkg calls, looked up the first time an archive is written (or
/// read through libarchive) rather than bound when the process starts.
///
/// On Linux, Debian's libarchive pulls in eight more libraries (nettle, acl, lzma, zstd, lz4,
/// bz2, zlib, libxml2, and through libxml2 ICU and its 30 MB data library): loading and
/// relocating them took 1.4 ms of CPU at every start, more than a third of what running a
/// package costs, while only `export` (and tests) write archives. Packages are read without
/// libarchive (`ZipEntryStream`), so `flowpkg run` never loads it. The release build links with
/// `--as-needed` (`.ci/release-build`): no symbol of libarchive is referenced, so the binary
/// does not list it as needed (see Benchmarks/README.md, start-up).
///
/// The fields are typed as libarchive declares them; `LibArchiveTests` checks every type
/// against the header by building one of these from the functions themselves.
package struct LibArchive: @unchecked Sendable {
    package typealias Handle = OpaquePointer?
    package typealias Text = UnsafePointer<CChar>?
    /// libarchive's callbacks (archive.h's archive_open_callback, archive_read_callback,
    /// archive_close_callback).
    package typealias OpenCallback = @convention(c) (Handle, UnsafeMutableRawPointer?) -> Int32
    package typealias ReadCallback =
        @convention(c) (Handle, UnsafeMutableRawPointer?, UnsafeMutablePointer<UnsafeRawPointer?>?) -> Int
    package typealias CloseCallback = @convention(c) (Handle, UnsafeMutableRawPointer?) -> Int32
    /// archive.h's archive_write_callback.
    package typealias WriteCallback = @convention(c) (Handle, UnsafeMutableRawPointer?, UnsafeRawPointer?, Int) -> Int

    // archive.h's status codes and archive_entry.h's file types, part of libarchive's ABI.
    package static let eof: Int32 = 1
    package static let warn: Int32 = -20
    package static let regularFile: UInt32 = 0o100000
    package static let directory: UInt32 = 0o040000
    package static let symbolicLink: UInt32 = 0o120000

    // Writing.
    package let archive_write_new: @convention(c) () -> OpaquePointer?
    package let archive_write_set_format_zip: @convention(c) (Handle) -> Int32
    package let archive_write_set_format_option: @convention(c) (Handle, Text, Text, Text) -> Int32
    package let archive_write_set_bytes_in_last_block: @convention(c) (Handle, Int32) -> Int32
    package let archive_write_open_filename: @convention(c) (Handle, Text) -> Int32
    package let archive_write_open:
        @convention(c) (Handle, UnsafeMutableRawPointer?, OpenCallback?, WriteCallback?, CloseCallback?) -> Int32
    package let archive_write_zip_set_compression_deflate: @convention(c) (Handle) -> Int32
    package let archive_write_zip_set_compression_store: @convention(c) (Handle) -> Int32
    package let archive_write_header: @convention(c) (Handle, Handle) -> Int32
    package let archive_write_data: @convention(c) (Handle, UnsafeRawPointer?, Int) -> Int
    package let archive_write_finish_entry: @convention(c) (Handle) -> Int32
    package let archive_write_close: @convention(c) (Handle) -> Int32
    package let archive_write_free: @convention(c) (Handle) -> Int32
    // Entries.
    package let archive_entry_new: @convention(c) () -> OpaquePointer?
    package let archive_entry_free: @convention(c) (Handle) -> Void
    package let archive_entry_clear: @convention(c) (Handle) -> OpaquePointer?
    package let archive_entry_set_pathname_utf8: @convention(c) (Handle, Text) -> Void
    package let archive_entry_set_filetype: @convention(c) (Handle, UInt32) -> Void
    package let archive_entry_set_perm: @convention(c) (Handle, mode_t) -> Void
    package let archive_entry_set_size: @convention(c) (Handle, Int64) -> Void
    package let archive_entry_set_mtime: @convention(c) (Handle, time_t, Int) -> Void
    package let archive_entry_set_uid: @convention(c) (Handle, Int64) -> Void
    package let archive_entry_set_gid: @convention(c) (Handle, Int64) -> Void
    package let archive_entry_pathname: @convention(c) (Handle) -> Text
    package let archive_entry_pathname_utf8: @convention(c) (Handle) -> Text
    package let archive_entry_symlink: @convention(c) (Handle) -> Text
    package let archive_entry_filetype: @convention(c) (Handle) -> mode_t
    package let archive_entry_size_is_set: @convention(c) (Handle) -> Int32
    package let archive_entry_size: @convention(c) (Handle) -> Int64
    package let archive_entry_perm: @convention(c) (Handle) -> mode_t
    package let archive_entry_mtime: @convention(c) (Handle) -> time_t
    // Reading.
    package let archive_read_new: @convention(c) () -> OpaquePointer?
    package let archive_read_support_format_zip_seekable: @convention(c) (Handle) -> Int32
    package let archive_read_support_format_zip_streamable: @convention(c) (Handle) -> Int32
    package let archive_read_set_format_option: @convention(c) (Handle, Text, Text, Text) -> Int32
    package let archive_read_open_filename: @convention(c) (Handle, Text, Int) -> Int32
    package let archive_read_open:
        @convention(c) (
            Handle, UnsafeMutableRawPointer?, OpenCallback?, ReadCallback?, CloseCallback?
        ) -> Int32
    package let archive_read_next_header: @convention(c) (Handle, UnsafeMutablePointer<OpaquePointer?>?) -> Int32
    package let archive_read_data: @convention(c) (Handle, UnsafeMutableRawPointer?, Int) -> Int
    package let archive_read_data_skip: @convention(c) (Handle) -> Int32
    package let archive_read_free: @convention(c) (Handle) -> Int32
    // Errors.
    package let archive_error_string: @convention(c) (Handle) -> Text

    /// The functions, or why libarchive could not be loaded; looked up once per process.
    package static let shared: Result<LibArchive, LoadError> = Result { () throws(LoadError) in
        try LibArchive(loading: ())
    }

    /// The functions, or an `ArchiveError` about `path` saying what is missing and how to install it.
    package static func load(for path: String) throws(ArchiveError) -> LibArchive {
        switch shared {
        case .success(let library): return library
        case .failure(let error):
            throw ArchiveError(path: path, operation: "load libarchive", message: error.message)
        }
    }

    package struct LoadError: Error {
        var message: String
    }
}

extension LibArchive {
    /// Finds each function by name: in libarchive loaded now on Linux, among the process's
    /// own libraries elsewhere (libarchive is linked as usual there: brew's on macOS). One
    /// list for both; `LibArchiveTests` checks each field's type against the header.
    fileprivate init(loading: Void) throws(LoadError) {
        #if os(Linux)
            // The soname every libarchive 3 has; RTLD_LOCAL keeps its symbols out of Lua's C modules' way.
            let name = "libarchive.so.13"
            guard let library = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                let reason = dlerror().map { String(cString: $0) } ?? name
                throw LoadError(message: "\(reason) (install libarchive: apt-get install libarchive13)")
            }
        #else
            // A call, so that the linker keeps libarchive (it drops a library nothing calls).
            guard archive_version_number() >= 3_004_000 else {
                throw LoadError(message: "libarchive 3.4 or later is needed")
            }
            let library = UnsafeMutableRawPointer(bitPattern: -2)  // dlfcn.h's RTLD_DEFAULT
        #endif
        func symbol<Function>(_ name: String) throws(LoadError) -> Function {
            guard let address = dlsym(library, name) else {
                throw LoadError(message: "this libarchive has no \(name) (libarchive 3.4 or later is needed)")
            }
            return unsafeBitCast(address, to: Function.self)
        }
        archive_write_new = try symbol("archive_write_new")
        archive_write_set_format_zip = try symbol("archive_write_set_format_zip")
        archive_write_set_format_option = try symbol("archive_write_set_format_option")
        archive_write_set_bytes_in_last_block = try symbol("archive_write_set_bytes_in_last_block")
        archive_write_open_filename = try symbol("archive_write_open_filename")
        archive_write_open = try symbol("archive_write_open")
        archive_write_zip_set_compression_deflate = try symbol("archive_write_zip_set_compression_deflate")
        archive_write_zip_set_compression_store = try symbol("archive_write_zip_set_compression_store")
        archive_write_header = try symbol("archive_write_header")
        archive_write_data = try symbol("archive_write_data")
        archive_write_finish_entry = try symbol("archive_write_finish_entry")
        archive_write_close = try symbol("archive_write_close")
        archive_write_free = try symbol("archive_write_free")
        archive_entry_new = try symbol("archive_entry_new")
        archive_entry_free = try symbol("archive_entry_free")
        archive_entry_clear = try symbol("archive_entry_clear")
        archive_entry_set_pathname_utf8 = try symbol("archive_entry_set_pathname_utf8")
        archive_entry_set_filetype = try symbol("archive_entry_set_filetype")
        archive_entry_set_perm = try symbol("archive_entry_set_perm")
        archive_entry_set_size = try symbol("archive_entry_set_size")
        archive_entry_set_mtime = try symbol("archive_entry_set_mtime")
        archive_entry_set_uid = try symbol("archive_entry_set_uid")
        archive_entry_set_gid = try symbol("archive_entry_set_gid")
        archive_entry_pathname = try symbol("archive_entry_pathname")
        archive_entry_pathname_utf8 = try symbol("archive_entry_pathname_utf8")
        archive_entry_symlink = try symbol("archive_entry_symlink")
        archive_entry_filetype = try symbol("archive_entry_filetype")
        archive_entry_size_is_set = try symbol("archive_entry_size_is_set")
        archive_entry_size = try symbol("archive_entry_size")
        archive_entry_perm = try symbol("archive_entry_perm")
        archive_entry_mtime = try symbol("archive_entry_mtime")
        archive_read_new = try symbol("archive_read_new")
        archive_read_support_format_zip_seekable = try symbol("archive_read_support_format_zip_seekable")
        archive_read_support_format_zip_streamable = try symbol("archive_read_support_format_zip_streamable")
        archive_read_set_format_option = try symbol("archive_read_set_format_option")
        archive_read_open_filename = try symbol("archive_read_open_filename")
        archive_read_open = try symbol("archive_read_open")
        archive_read_next_header = try symbol("archive_read_next_header")
        archive_read_data = try symbol("archive_read_data")
        archive_read_data_skip = try symbol("archive_read_data_skip")
        archive_read_free = try symbol("archive_read_free")
        archive_error_string = try symbol("archive_error_string")
    }
}
