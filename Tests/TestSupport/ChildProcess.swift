import Foundation
import Glibc
import Synchronization

/// A child process started with `posix_spawn`, with the members of Foundation's `Process` the tests use. Not
/// `Process` itself: on Linux with Swift 6.3.1 its `run()` crashes now and then, an over-read while it lists
/// `/proc/self/fd` (swift-corelibs-foundation #5472), seen in this suite. The child gets a default signal mask and
/// dispositions, and no descriptor of this process but its standard ones.
public final class ChildProcess: Sendable {
    /// How a child ended.
    public enum TerminationReason: Sendable, Equatable {
        case exit
        case uncaughtSignal
    }

    /// Where a standard stream goes.
    public enum Stream: Sendable {
        /// `/dev/null`.
        case null
        /// The pipe ``output`` reads (standard output and error share it when both go there).
        case pipe
        /// A pipe of its own, which ``errorOutput`` reads (standard error only).
        case errorPipe
        /// This process's own.
        case inherit
    }

    public let processIdentifier: pid_t
    /// The read end of the pipe of the streams that go to ``Stream/pipe``; nil when none does.
    public let output: FileHandle?
    /// The read end of standard error's own pipe (``Stream/errorPipe``); nil without one.
    public let errorOutput: FileHandle?
    /// The write end of the child's standard input, when it was started with `keepsInputOpen`.
    public let input: FileHandle?
    private let ended = Mutex<(status: Int32, reason: TerminationReason)?>(nil)

    /// Starts `executable` with `arguments`, its environment `environment` (nil: this process's), `input` written to
    /// its standard input and then closed (nil: `/dev/null`, or with `keepsInputOpen` a pipe ``input`` writes to).
    public init(
        executable: URL, arguments: [String], environment: [String: String]? = nil, input: Data? = nil,
        keepsInputOpen: Bool = false, standardOutput: Stream, standardError: Stream
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var inputPipe: [Int32] = [-1, -1]
        if input != nil || keepsInputOpen {
            try Self.makePipe(&inputPipe)
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        var outputPipe: [Int32] = [-1, -1]
        if standardOutput == .pipe || standardError == .pipe {
            try Self.makePipe(&outputPipe)
        }
        var errorPipe: [Int32] = [-1, -1]
        if standardError == .errorPipe {
            try Self.makePipe(&errorPipe)
        }
        for (descriptor, stream) in [(Int32(1), standardOutput), (Int32(2), standardError)] {
            switch stream {
            case .pipe: posix_spawn_file_actions_adddup2(&actions, outputPipe[1], descriptor)
            case .errorPipe: posix_spawn_file_actions_adddup2(&actions, errorPipe[1], descriptor)
            case .null: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            case .inherit: break
            }
        }
        Self.addCloseFrom?(&actions, 3)

        let argv = ([executable.path] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let environment = environment ?? ProcessInfo.processInfo.environment
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer { envp.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
            (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
                posix_spawn(&pid, executable.path, &actions, &attributes, argvBuffer.baseAddress!, envpBuffer.baseAddress!)
            }
        }
        if inputPipe[0] >= 0 { close(inputPipe[0]) }
        if outputPipe[1] >= 0 { close(outputPipe[1]) }
        if errorPipe[1] >= 0 { close(errorPipe[1]) }
        guard spawned == 0 else {
            for end in [inputPipe[1], outputPipe[0], errorPipe[0]] where end >= 0 { close(end) }
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EINVAL)
        }
        processIdentifier = pid
        output = outputPipe[0] >= 0 ? FileHandle(fileDescriptor: outputPipe[0], closeOnDealloc: true) : nil
        errorOutput = errorPipe[0] >= 0 ? FileHandle(fileDescriptor: errorPipe[0], closeOnDealloc: true) : nil
        self.input = keepsInputOpen && input == nil ? FileHandle(fileDescriptor: inputPipe[1], closeOnDealloc: true) : nil
        if let input {
            let writer = FileHandle(fileDescriptor: inputPipe[1], closeOnDealloc: true)
            writer.write(input)
            try writer.close()
        }
    }

    /// Whether the child has not ended yet.
    public var isRunning: Bool { reap(blocking: false) == nil }

    /// Sends SIGTERM.
    public func terminate() {
        kill(processIdentifier, SIGTERM)
    }

    /// Waits for the child to end.
    public func waitUntilExit() {
        _ = reap(blocking: true)
    }

    /// The exit status, or the number of the signal that ended the child; waits for it to end.
    public var terminationStatus: Int32 { reap(blocking: true)?.status ?? -1 }

    /// Whether the child exited or a signal ended it; waits for it to end.
    public var terminationReason: TerminationReason { reap(blocking: true)?.reason ?? .exit }

    /// The child's end, reaping it once (nil while it runs, when not `blocking`).
    private func reap(blocking: Bool) -> (status: Int32, reason: TerminationReason)? {
        ended.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(processIdentifier, &status, blocking ? 0 : WNOHANG)
            } while result == -1 && errno == EINTR
            guard result == processIdentifier else { return nil }
            let signal = status & 0x7f
            ended = signal == 0 ? ((status >> 8) & 0xff, .exit) : (signal, .uncaughtSignal)
            return ended
        }
    }

    /// Runs `executable` to its end: its exit status and its standard output and error together.
    public static func run(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, input: Data? = nil
    ) throws -> (status: Int32, output: String) {
        let child = try ChildProcess(
            executable: executable, arguments: arguments, environment: environment, input: input,
            standardOutput: .pipe, standardError: .pipe)
        let output = String(decoding: child.output?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        child.waitUntilExit()
        return (child.terminationStatus, output)
    }

    /// A pipe whose ends are closed on exec (the child gets its end by `dup2`, which clears that).
    private static func makePipe(_ ends: inout [Int32]) throws {
        guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module does not
    /// import: closes every descriptor from 3 up in the child.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(
            symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()
}
