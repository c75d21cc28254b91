import Foundation
import TestSupport

/// The LD_PRELOAD shim of `Tests/Support/faultinject.c`, compiled for one test, and the environment that arms it in
/// a child process.
struct FaultInjector {
    /// A family of file-system calls the shim can fail (see the comment at the top of `faultinject.c`).
    enum Operation: String, Sendable {
        case fsync, write, rename, open, mkdir
    }

    /// Whether only the Nth matching call fails, or it and every later one (a failed disk stays failed).
    enum Mode: String, Sendable {
        case once, sticky
    }

    /// The compiled shared library.
    let library: URL

    /// Compiles the shim with `cc` into `directory`; fails with a clear message when there is no `cc`.
    static func compile(into directory: URL) throws -> FaultInjector {
        let source = Repository.url("Tests/Support/faultinject.c")
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw TestFailure("the fault-injection shim is missing at \(source.path)")
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let compilers = path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("cc") }
        guard let compiler = compilers.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw TestFailure(
                "cannot compile \(source.path): no `cc` on PATH (\(path)). The fault-injection tests build an "
                    + "LD_PRELOAD shim at test time; install the C compiler the Swift toolchain needs (e.g. gcc).")
        }
        let library = directory.appendingPathComponent("libfaultinject.so")
        let (status, diagnostics) = try ChildProcess.run(
            compiler, ["-shared", "-fPIC", "-O2", "-o", library.path, source.path, "-ldl"])
        guard status == 0 else {
            throw TestFailure("\(compiler.path) failed on \(source.path) (status \(status)): \(diagnostics)")
        }
        return FaultInjector(library: library)
    }

    /// Variables that preload the shim and make the `nth` call of `operation` on a path starting with `pathPrefix`
    /// fail with `errno` (a name such as `EIO` or `ENOSPC`).
    func environment(
        failing operation: Operation, nth: Int = 1, errno: String = "EIO", mode: Mode = .sticky, pathPrefix: String
    ) -> [String: String] {
        [
            "LD_PRELOAD": library.path,
            "FAULT_OP": operation.rawValue,
            "FAULT_NTH": String(nth),
            "FAULT_ERRNO": errno,
            "FAULT_MODE": mode.rawValue,
            "FAULT_PATH_PREFIX": pathPrefix,
        ]
    }
}
