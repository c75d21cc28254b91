import Foundation
import TabConfigClient

// Test tooling for TabConfigClient's kill test (Tests/TabConfigClientServerTests/ProbeTests.swift): saves a user's tab
// order through TabBarClient, or resumes the save another process left pending, printing one line per step:
//
//   TabConfigClientProbe save --base-url URL --client ID --user ID --storage DIR --base-revision N \
//       --base-order a,b,c [--base-hidden x] --order c,a,b [--hidden x] [--base-delay-ms 100] [--max-delay-ms 1000]
//   TabConfigClientProbe resume --base-url URL --client ID --user ID --storage DIR [--base-delay-ms …]
//
// `save` prints `pending-written` once the pending-save file is on disk, then keeps sending (the client's own
// backoff) until the service stores it; both print `saved revision=N order=…` then. Exit 0 when saved, 1 when the
// service refused the save, 64 on wrong usage.

/// The command line's options, `--name value` each.
struct Options {
    var command: String
    var values: [String: String] = [:]

    init(_ arguments: [String]) throws {
        guard let command = arguments.first else { throw UsageError("no command: save or resume") }
        self.command = command
        var rest = arguments.dropFirst()
        while let name = rest.popFirst() {
            guard name.hasPrefix("--"), let value = rest.popFirst() else { throw UsageError("expected --name value") }
            values[String(name.dropFirst(2))] = value
        }
    }

    func required(_ name: String) throws -> String {
        guard let value = values[name] else { throw UsageError("--\(name) is required") }
        return value
    }

    func list(_ name: String) -> [String] {
        values[name].map { $0.split(separator: ",").map(String.init) } ?? []
    }

    func milliseconds(_ name: String, default value: Int) throws -> Duration {
        guard let text = values[name] else { return .milliseconds(value) }
        guard let number = Int(text), number > 0 else { throw UsageError("--\(name) takes a positive number") }
        return .milliseconds(number)
    }
}

struct UsageError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Prints `line` at once (the parent reads it through a pipe).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Waits until the client holds no pending save; returns the exit status.
func waitUntilStored(_ client: TabBarClient) async -> Int32 {
    for await status in client.statusUpdates where !status.hasPendingSave {
        if case .rejected(let problem) = status.lastError {
            say("rejected status=\(problem.status) \(problem.detail)")
            return 1
        }
        let bar = client.current?.tabBar
        let order = bar?.tabs.map(\.id).joined(separator: ",") ?? ""
        say("saved revision=\(bar?.customization?.revision ?? -1) order=\(order)")
        return 0
    }
    say("stopped")
    return 1
}

func run() async -> Int32 {
    do {
        let options = try Options(Array(CommandLine.arguments.dropFirst()))
        guard let baseURL = URL(string: try options.required("base-url")) else { throw UsageError("bad --base-url") }
        let configuration = TabBarClient.Configuration(
            baseURL: baseURL, client: try options.required("client"), user: .id(try options.required("user")),
            storageDirectory: URL(fileURLWithPath: try options.required("storage")),
            retryPolicy: TabBarClient.RetryPolicy(
                baseDelay: try options.milliseconds("base-delay-ms", default: 100),
                maxDelay: try options.milliseconds("max-delay-ms", default: 1000)),
            requestTimeout: .seconds(5))
        let client = TabBarClient(configuration: configuration)
        switch options.command {
        case "save":
            guard let revision = Int(try options.required("base-revision")) else {
                throw UsageError("--base-revision takes a number")
            }
            let edit = TabOrderEdit(
                base: TabOrderState(order: options.list("base-order"), hidden: options.list("base-hidden")),
                edited: TabOrderState(order: options.list("order"), hidden: options.list("hidden")))
            try await client.save(edit, baseRevision: revision)
            say("pending-written")
        case "resume":
            await client.start()
            guard let edit = await client.pendingEdit else {
                say("nothing-pending")
                return 0
            }
            say("pending-loaded order=\(edit.edited.order.joined(separator: ","))")
            _ = try? await client.sendPendingSave()
        default:
            throw UsageError("unknown command \(options.command): save or resume")
        }
        let status = await waitUntilStored(client)
        await client.shutdown()
        return status
    } catch let error as UsageError {
        FileHandle.standardError.write(Data("usage: \(error.description)\n".utf8))
        return 64
    } catch {
        say("error \(error)")
        return 1
    }
}

exit(await run())
