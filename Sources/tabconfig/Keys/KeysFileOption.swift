import ArgumentParser
import Foundation
import TabBarAPI
import TabBarStore

/// The `--file` option of the `keys` commands, with reading and writing of the file it names.
struct KeysFileOption: ParsableArguments {
    @Option(name: .customLong("file"), help: "The admin keys file (TABCONFIG_ADMIN_KEYS_FILE).")
    var path: String?

    /// The file named by `--file`, else by TABCONFIG_ADMIN_KEYS_FILE.
    func url() throws -> URL {
        guard let path = path ?? ProcessInfo.processInfo.environment["TABCONFIG_ADMIN_KEYS_FILE"], !path.isEmpty else {
            throw ValidationError("name the admin keys file with --file or TABCONFIG_ADMIN_KEYS_FILE")
        }
        return URL(fileURLWithPath: path)
    }

    /// The file's keys; an empty file when `missingIsEmpty` and it does not exist. Exit status 1 when it cannot be
    /// read or checked.
    func read(missingIsEmpty: Bool = false) throws -> AdminKeysFile {
        let url = try url()
        if missingIsEmpty, !FileManager.default.fileExists(atPath: url.path) { return AdminKeysFile() }
        do {
            return try AdminKeysFile(contentsOf: url)
        } catch {
            StandardError.print("\(error)")
            throw ExitCode.failure
        }
    }

    /// Replaces the file with `file` atomically and durably, readable by its owner only.
    func write(_ file: AdminKeysFile) throws {
        let url = try url()
        do {
            try SecretFile.write(file.encoded(), to: url)
        } catch {
            StandardError.print("cannot write \(url.path): \(error)")
            throw ExitCode.failure
        }
    }
}
