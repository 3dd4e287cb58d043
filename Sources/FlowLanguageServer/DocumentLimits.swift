/// What the server keeps of the documents an editor opens: one editor could otherwise make it
/// hold anything (8 buffers of 200 MB kept 1.66 GB).
///
/// Only files of the project are kept (a file outside it is never checked, so its text is of no
/// use), none larger than a module may be (validate refuses it as FP303 all the same), and all
/// of them together within `maximumTotalBytes`. A buffer not kept is not lost: the file's saved
/// content is what counts for it, as for any file not open.
struct DocumentLimits: Sendable {
    /// A larger buffer is not kept (validate's module limit).
    var maximumDocumentBytes = 8 << 20
    /// All kept buffers together.
    var maximumTotalBytes = 64 << 20

    /// A message larger than this is not read (`MessageReader` skips it as it comes, keeping
    /// its first 4 KB): its document, JSON-escaped, could not be kept anyway. Four times the
    /// document limit leaves room for escapes; 4 documents of 200 MB peaked at 891 MB resident
    /// when they were read whole and refused after.
    var maximumFrameBytes: Int { maximumDocumentBytes * 4 + (1 << 20) }

    /// Why a buffer of `size` bytes cannot be kept when the others take `others`, or nil.
    func refusal(size: Int, others: Int) -> String? {
        if size > maximumDocumentBytes {
            return "it is \(size) bytes, more than a module may be (\(maximumDocumentBytes >> 20) MB)"
        }
        if others + size > maximumTotalBytes {
            return "the open buffers would take more than \(maximumTotalBytes >> 20) MB"
        }
        return nil
    }
}
