import Foundation
import TestSupport
import Glibc

/// Runs the `StoreCrashWriter` executable, reads the lines it prints, and kills it with SIGKILL.
final class CrashWriterProcess {
    /// When to start the kill delay.
    enum Start {
        /// Right after spawning: the kill may land while the store is still opening.
        case immediately
        /// After the writer printed READY (the store is open).
        case afterReady
        /// After the first acknowledged write.
        case afterFirstAck
    }

    struct LaunchError: Error, CustomStringConvertible {
        var description: String
    }

    private let process: ChildProcess
    private var buffer = Data()
    private var finished = false
    /// Complete lines read so far.
    private(set) var lines: [String] = []

    /// Where the build put the writer: next to the running test executable, or one directory up.
    static func executable() throws -> URL {
        var directories: [URL] = []
        if let running = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let directory = URL(fileURLWithPath: running).deletingLastPathComponent()
            directories += [directory, directory.deletingLastPathComponent()]
        }
        let argument = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        directories += [argument, argument.deletingLastPathComponent()]
        for directory in directories {
            let candidate = directory.appendingPathComponent("StoreCrashWriter")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw LaunchError(description: "StoreCrashWriter not found in \(directories.map(\.path))")
    }

    init(executable: URL, arguments: [String]) throws {
        process = try ChildProcess(
            executable: executable, arguments: arguments, standardOutput: .pipe, standardError: .inherit)
    }

    /// Waits (reading output) until a line satisfies `condition`, the writer exits, or `limit` passes.
    /// Returns whether the line came.
    func wait(until condition: (String) -> Bool, limit: Duration = .seconds(30)) -> Bool {
        let deadline = ContinuousClock.now + limit
        var checked = 0
        while true {
            while checked < lines.count {
                if condition(lines[checked]) { return true }
                checked += 1
            }
            if finished || ContinuousClock.now >= deadline { return false }
            read(until: min(deadline, ContinuousClock.now + .milliseconds(50)))
        }
    }

    /// Keeps reading output for `duration`, then kills the writer with SIGKILL, waits for it, and reads what is left.
    /// Returns whether the writer was still running (killed by the signal rather than exited by itself).
    func kill(after duration: Duration) -> Bool {
        read(until: ContinuousClock.now + duration)
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        read(until: ContinuousClock.now)
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    /// Reads whatever arrives until `deadline` (at least what is already buffered in the pipe).
    private func read(until deadline: ContinuousClock.Instant) {
        guard let fd = process.output?.fileDescriptor else { return }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while !finished {
            let (seconds, attoseconds) = (deadline - ContinuousClock.now).components
            let milliseconds = Int32(max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            if ready <= 0 { return }
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                finished = true
                return
            }
            buffer.append(contentsOf: chunk[0..<count])
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                buffer.removeSubrange(buffer.startIndex...newline)
            }
        }
    }
}
