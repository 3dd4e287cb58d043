#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a file operation failed, in words for a message: the system's own text
/// ("No such file or directory") where the error carries an errno.
///
/// Foundation's `localizedDescription` is not in FoundationEssentials (its texts come with the
/// internationalization part and its ICU data), so Linux builds say it from the errno instead.
package func failureReason(_ error: any Error) -> String {
    #if canImport(FoundationEssentials)
        if let error = error as? LocalizedError, let description = error.errorDescription {
            return description
        }
        if let error = error as? CocoaError {
            if let underlying = error.userInfo["NSUnderlyingError"] as? POSIXError {
                return String(cString: strerror(underlying.code.rawValue))
            }
            return "file operation failed (code \(error.code.rawValue))"
        }
        if let error = error as? POSIXError {
            return String(cString: strerror(error.code.rawValue))
        }
        return "\(error)"
    #else
        return failureReason(error)
    #endif
}
