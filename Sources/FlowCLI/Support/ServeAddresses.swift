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

/// The URLs `flowpkg serve` prints: the ones a host can really connect to.
///
/// A wildcard host (`0.0.0.0`, `::`) is no address to connect to: it stands for every address
/// of the machine, so the URLs are the machine's own network addresses (from getifaddrs), the
/// ones a device on the network uses. Loopback and link-local addresses are left out of
/// those (a device cannot use them; a link-local URL would need its interface's name).
enum ServeAddresses {
    /// One address of a network interface that is up.
    struct Interface: Equatable {
        var name: String
        var address: String
        var isIPv6: Bool
    }

    /// The URLs for a server listening on `host`:`port`, the most useful first; `interfaces`
    /// are the machine's addresses (only used for a wildcard host).
    static func urls(host: String, port: UInt16, interfaces: [Interface]) -> [String] {
        let wildcard4 = host == "0.0.0.0"
        let wildcard6 = host == "::" || host == "0:0:0:0:0:0:0:0"
        guard wildcard4 || wildcard6 else { return [url(host, port)] }
        let usable = interfaces.filter { interface in
            // An IPv4 wildcard listens on IPv4 only; the IPv6 one, on Linux and macOS, on both.
            (wildcard6 || !interface.isIPv6) && !isLoopback(interface.address) && !isLinkLocal(interface.address)
        }
        var seen = Set<String>()
        let addresses = (usable.filter { !$0.isIPv6 } + usable.filter(\.isIPv6)).map(\.address).filter {
            seen.insert($0).inserted
        }
        return addresses.map { url($0, port) }
    }

    static func url(_ host: String, _ port: UInt16) -> String {
        "http://\(host.contains(Character(":")) ? "[\(host)]" : host):\(port)"
    }

    static func isLoopback(_ address: String) -> Bool {
        address.hasPrefix("127.") || address == "::1"
    }

    static func isLinkLocal(_ address: String) -> Bool {
        address.hasPrefix("169.254.") || address.lowercased().hasPrefix("fe80:")
    }

    /// The machine's IPv4 and IPv6 addresses on interfaces that are up, in the system's order.
    static func machineInterfaces() -> [Interface] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [Interface] = []
        for pointer in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let entry = pointer.pointee
            guard let socketAddress = entry.ifa_addr, entry.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
            let family = Int32(socketAddress.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(socketAddress, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else {
                continue
            }
            var address = String(cString: text)
            // getnameinfo writes a link-local address's zone (fe80::1%eth0); it is dropped anyway.
            if let percent = address.firstIndex(of: "%") { address = String(address[..<percent]) }
            found.append(Interface(name: String(cString: entry.ifa_name), address: address, isIPv6: family == AF_INET6))
        }
        return found
    }
}
