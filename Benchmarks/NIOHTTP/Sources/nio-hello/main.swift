// A static program that prints one line with NIOCore, NIOPosix and NIOHTTP1 linked in and
// reachable (a server is started only when an argument is given): what linking NIO adds to
// every start and to the binary.
import NIOCore
import NIOHTTP1
import NIOPosix

print("hello")
if CommandLine.arguments.count > 1 {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let channel = try ServerBootstrap(group: group)
        .childChannelInitializer { channel in channel.pipeline.configureHTTPServerPipeline() }
        .bind(host: "127.0.0.1", port: 0).wait()
    try channel.close().wait()
    try group.syncShutdownGracefully()
}
