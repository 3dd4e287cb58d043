// FoundationEssentials is linked, as flowpkg links it: the baseline for what
// swift-subprocess adds to flowpkg. Starts `/bin/true` N times as ChildProcess does: a process
// group of its own, input from /dev/null, output captured through a pipe, reaped with waitpid.
import FoundationEssentials
#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 1 : 1
for _ in 0..<count {
    var actions = posix_spawn_file_actions_t()
    var attributes = posix_spawnattr_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawnattr_init(&attributes)
    var descriptors: [Int32] = [-1, -1]
    _ = pipe(&descriptors)
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, descriptors[1], 1)
    posix_spawn_file_actions_addclose(&actions, descriptors[0])
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
    var pid: pid_t = 0
    guard posix_spawn(&pid, "/bin/true", &actions, &attributes, argv, environ) == 0 else { exit(1) }
    close(descriptors[1])
    var byte: UInt8 = 0
    while read(descriptors[0], &byte, 1) > 0 {}
    close(descriptors[0])
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    free(argv[0])
    posix_spawn_file_actions_destroy(&actions)
    posix_spawnattr_destroy(&attributes)
}
print("hello", count, Data([1, 2]).count, Date.now > Date(timeIntervalSince1970: 0))
