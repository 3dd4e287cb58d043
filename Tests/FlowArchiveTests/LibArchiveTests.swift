import CArchive
import Testing

@testable import FlowArchive

/// `LibArchive` finds libarchive's functions by name at run time; these tests keep the names
/// and the types honest.
@Suite struct LibArchiveTests {
    /// Every field has the type libarchive's header gives the function of its name: the table
    /// is built here from the functions themselves (this test target links libarchive), which
    /// does not compile if one type is wrong or one field is missing; and the library's loader
    /// finds, by name, the very same functions.
    @Test func everyFunctionHasTheHeadersTypeAndTheLoaderFindsIt() throws {
        let linked = LibArchive(
            archive_write_new: archive_write_new,
            archive_write_set_format_zip: archive_write_set_format_zip,
            archive_write_set_format_option: archive_write_set_format_option,
            archive_write_set_bytes_in_last_block: archive_write_set_bytes_in_last_block,
            archive_write_open_filename: archive_write_open_filename,
            archive_write_open: archive_write_open,
            archive_write_zip_set_compression_deflate: archive_write_zip_set_compression_deflate,
            archive_write_zip_set_compression_store: archive_write_zip_set_compression_store,
            archive_write_header: archive_write_header,
            archive_write_data: archive_write_data,
            archive_write_finish_entry: archive_write_finish_entry,
            archive_write_close: archive_write_close,
            archive_write_free: archive_write_free,
            archive_entry_new: archive_entry_new,
            archive_entry_free: archive_entry_free,
            archive_entry_clear: archive_entry_clear,
            archive_entry_set_pathname_utf8: archive_entry_set_pathname_utf8,
            archive_entry_set_filetype: archive_entry_set_filetype,
            archive_entry_set_perm: archive_entry_set_perm,
            archive_entry_set_size: archive_entry_set_size,
            archive_entry_set_mtime: archive_entry_set_mtime,
            archive_entry_set_uid: archive_entry_set_uid,
            archive_entry_set_gid: archive_entry_set_gid,
            archive_entry_pathname: archive_entry_pathname,
            archive_entry_pathname_utf8: archive_entry_pathname_utf8,
            archive_entry_symlink: archive_entry_symlink,
            archive_entry_filetype: archive_entry_filetype,
            archive_entry_size_is_set: archive_entry_size_is_set,
            archive_entry_size: archive_entry_size,
            archive_entry_perm: archive_entry_perm,
            archive_entry_mtime: archive_entry_mtime,
            archive_read_new: archive_read_new,
            archive_read_support_format_zip_seekable: archive_read_support_format_zip_seekable,
            archive_read_support_format_zip_streamable: archive_read_support_format_zip_streamable,
            archive_read_set_format_option: archive_read_set_format_option,
            archive_read_open_filename: archive_read_open_filename,
            archive_read_open: archive_read_open,
            archive_read_next_header: archive_read_next_header,
            archive_read_data: archive_read_data,
            archive_read_data_skip: archive_read_data_skip,
            archive_read_free: archive_read_free,
            archive_error_string: archive_error_string)
        // The table loaded by name holds the same functions, field for field.
        let loaded = try LibArchive.load(for: "test")
        let linkedAddresses = withUnsafeBytes(of: linked) { Array($0) }
        let loadedAddresses = withUnsafeBytes(of: loaded) { Array($0) }
        #expect(linkedAddresses.count == MemoryLayout<LibArchive>.size)
        #expect(linkedAddresses == loadedAddresses)
        let version = archive_version_number()
        #expect(version >= 3_004_000)
        let handle = loaded.archive_write_new()
        #expect(handle != nil)
        #expect(loaded.archive_write_set_format_zip(handle) == ARCHIVE_OK)
        #expect(linked.archive_write_free(handle) == ARCHIVE_OK)
    }
}
