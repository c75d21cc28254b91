import Foundation
import Glibc
import Synchronization
import TestSupport

/// Runs the `TabConfigClientProbe` executable, collects the lines it prints, and can kill it with SIGKILL.
final class ProbeProcess: Sendable {
    private let process: ChildProcess
    private let lines = Mutex<(complete: [String], partial: Data)>(([], Data()))

    /// Starts the probe with `arguments`.
    init(_ arguments: [String]) throws {
        process = try ChildProcess(
            executable: try Self.executable(), arguments: arguments, standardOutput: .pipe, standardError: .null)
        process.output?.readabilityHandler = { [self] handle in
            let chunk = handle.availableData
            if chunk.isEmpty { handle.readabilityHandler = nil }
            self.lines.withLock { lines in
                lines.partial.append(chunk)
                while let newline = lines.partial.firstIndex(of: UInt8(ascii: "\n")) {
                    lines.complete.append(String(decoding: lines.partial[..<newline], as: UTF8.self))
                    lines.partial = Data(lines.partial[lines.partial.index(after: newline)...])
                }
            }
        }
    }

    /// The lines printed so far.
    var output: [String] { lines.withLock { $0.complete } }

    /// Waits until a printed line satisfies `condition`; returns whether one did within `seconds`.
    func printed(within seconds: Int = 30, _ condition: @escaping (String) -> Bool) async -> Bool {
        await waitUntil(within: seconds) { output.contains(where: condition) }
    }

    /// Kills the probe with SIGKILL and waits for it; returns whether the signal ended it (it was still running).
    func kill() -> Bool {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    /// Waits for the probe to exit by itself within `seconds` and returns its status; kills it when it did not.
    func exitStatus(within seconds: Int = 30) async -> Int32? {
        guard await waitUntil(within: seconds, { !process.isRunning }) else {
            _ = kill()
            return nil
        }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The probe, built next to the test binary.
    private static func executable() throws -> URL {
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("TabConfigClientProbe")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        throw ServerError("TabConfigClientProbe is not built next to the tests")
    }
}
