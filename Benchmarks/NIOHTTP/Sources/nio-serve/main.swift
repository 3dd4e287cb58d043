// A live-source-like server on NIOHTTP1: a GET with the token gets a module's bytes, one
// without gets 401; at most `requests` requests are answered at once (then 503), as
// flowpkg serve's budget does. `nio-serve PORT-FILE BODY-FILE`.
import NIOCore
import NIOHTTP1
import NIOPosix
#if canImport(Glibc)
    import Glibc
#endif

let arguments = CommandLine.arguments
/// The file at `path`, whole.
func contents(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { return [] }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        if count <= 0 { break }
        bytes += chunk[0..<count]
    }
    return bytes
}
let body = contents(arguments[2])
let token = "Bearer bench-token"
let budget = ManagedAtomicCounter(limit: 64)

final class ManagedAtomicCounter: @unchecked Sendable {
    private var lock = pthread_mutex_t()
    private var count = 0
    let limit: Int
    init(limit: Int) {
        self.limit = limit
        pthread_mutex_init(&lock, nil)
    }
    func enter() -> Bool {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        if count >= limit { return false }
        count += 1
        return true
    }
    func leave() {
        pthread_mutex_lock(&lock)
        count -= 1
        pthread_mutex_unlock(&lock)
    }
}

final class Handler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart
    private var head: HTTPRequestHead?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request): head = request
        case .body: break
        case .end:
            guard let request = head else { return }
            var status = HTTPResponseStatus.ok
            var bytes = body
            if request.headers["authorization"].first != token {
                status = .unauthorized
                bytes = Array("missing or wrong token\n".utf8)
            } else if !budget.enter() {
                status = .serviceUnavailable
                bytes = Array("busy\n".utf8)
            } else {
                budget.leave()
            }
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "text/plain")
            headers.add(name: "Content-Length", value: "\(bytes.count)")
            headers.add(name: "Connection", value: "close")
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: request.version, status: status, headers: headers))),
                promise: nil)
            var buffer = context.channel.allocator.buffer(capacity: bytes.count)
            buffer.writeBytes(bytes)
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
        }
    }
}

let group = MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount)
let bootstrap = ServerBootstrap(group: group)
    .serverChannelOption(ChannelOptions.backlog, value: 512)
    .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
    .childChannelInitializer { channel in
        channel.pipeline.configureHTTPServerPipeline().flatMap { channel.pipeline.addHandler(Handler()) }
    }
let channel = try bootstrap.bind(host: "127.0.0.1", port: 0).wait()
if let file = fopen(arguments[1], "w") {
    fputs("\(channel.localAddress?.port ?? 0)\n", file)
    fclose(file)
}
try channel.closeFuture.wait()
