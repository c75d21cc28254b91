import ArgumentParser
import Foundation
import TabBarAPI

/// The data directory the `store` subcommands work on, chosen as `serve` chooses it.
enum StoreCommandDirectory {
    /// `--data-dir` when given, else TABCONFIG_DATA_DIR, else ./data.
    static func resolve(_ dataDir: String?) throws -> URL {
        if let dataDir { return URL(fileURLWithPath: dataDir) }
        return try ApplicationConfiguration(environment: ProcessInfo.processInfo.environment).dataDirectory
    }

    /// Writes one line to standard error.
    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
