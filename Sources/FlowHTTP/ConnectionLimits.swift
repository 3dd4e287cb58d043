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

/// How many connections an `HTTPServer` (`flowpkg serve`'s) holds at once, and for how long a client may take to
/// say what it wants: the budgets that keep clients without the token from locking out the
/// developer who has it.
public struct ConnectionLimits: Sendable {
    /// Seconds a client has, from its connection, to send its whole request head.
    public var headerTimeout: TimeInterval
    /// Connections still sending their request head (so not yet known to hold the token); a
    /// new one closes the oldest when this many wait.
    public var pendingConnections: Int
    /// Requests with the token answered at once, event streams apart; more get 503.
    public var requests: Int
    /// Requests without the token (or malformed) answered at once; more get 503.
    public var unauthenticatedRequests: Int
    /// Event streams open at once; a new one ends the oldest (a client that is still there
    /// reconnects; one that vanished without closing no longer holds a place).
    public var eventStreams: Int

    public init(
        headerTimeout: TimeInterval = 5, pendingConnections: Int = 512, requests: Int = 64,
        unauthenticatedRequests: Int = 16, eventStreams: Int = 32
    ) {
        self.headerTimeout = headerTimeout
        self.pendingConnections = pendingConnections
        self.requests = requests
        self.unauthenticatedRequests = unauthenticatedRequests
        self.eventStreams = eventStreams
    }
}
