import ArgumentParser
import Foundation

/// The options of the commands that talk to a running service (`export`, `apply`): where it is and the admin token.
struct ServerOptions: ParsableArguments {
    @Option(help: "The running service, http(s)://HOST[:PORT][/PREFIX], e.g. http://127.0.0.1:8080.")
    var url: String
    @Option(help: "Admin token (default: TABCONFIG_ADMIN_TOKEN, which keeps it out of the process list).")
    var token: String?

    func validate() throws {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""),
            !(parsed.host ?? "").isEmpty
        else {
            throw ValidationError("--url must be an http:// or https:// URL with a host, e.g. http://127.0.0.1:8080.")
        }
        guard resolvedToken != nil else {
            throw ValidationError("An admin token is needed: --token or TABCONFIG_ADMIN_TOKEN.")
        }
    }

    /// `--token`, else TABCONFIG_ADMIN_TOKEN; nil when neither is set or empty.
    private var resolvedToken: String? {
        [token, ProcessInfo.processInfo.environment["TABCONFIG_ADMIN_TOKEN"]].compactMap { $0 }.first { !$0.isEmpty }
    }

    /// The client for the service (after `validate()`).
    func client() -> AdminClient {
        AdminClient(baseURL: URL(string: url)!, token: resolvedToken ?? "")
    }
}
