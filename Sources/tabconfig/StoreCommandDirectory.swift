import Foundation
import TabBarAPI

/// The data directory the `store` subcommands work on, chosen as `serve` chooses it.
enum StoreCommandDirectory {
    /// `--data-dir` when given, else TABCONFIG_DATA_DIR, else ./data. Other TABCONFIG_* variables are not read, so one
    /// that `serve` would reject cannot stop a check of the data.
    static func resolve(_ dataDir: String?) -> URL {
        if let dataDir { return URL(fileURLWithPath: dataDir) }
        let environment = ProcessInfo.processInfo.environment.filter { $0.key == "TABCONFIG_DATA_DIR" }
        let configuration = try? ApplicationConfiguration(environment: environment)
        return configuration?.dataDirectory ?? ApplicationConfiguration().dataDirectory
    }
}
