// The zip container lives in FlowArchive; a package's readers and writers are built on it, and
// its public types (ArchiveReader, ArchiveWriter, ArchiveError, …) stay part of what a client of
// FlowPackage sees.
@_exported import FlowArchive
