// Re-exported, so a client of the live server names its budgets without importing FlowHTTP.
@_exported import struct FlowHTTP.ConnectionLimits

/// The budgets of `flowpkg serve`'s connections: FlowHTTP's server's (the name the live
/// server's options have always used).
public typealias LiveConnectionLimits = ConnectionLimits
