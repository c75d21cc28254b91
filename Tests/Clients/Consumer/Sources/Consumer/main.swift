// An app that adds tabconfig's client and nothing else: it makes a client's configuration and the client, and
// says so. Tests/Clients/Consumer/check.py builds and runs it; it sends no request.
import Foundation
import TabConfigClient

let storage = FileManager.default.temporaryDirectory.appendingPathComponent("tabconfig-consumer-\(UUID())")
let configuration = TabBarClient.Configuration(
    baseURL: URL(string: "https://tabs.example.com")!,
    client: "ios-phone",
    user: .id("consumer"),
    context: TabBarContext(platform: "ios"),
    storageDirectory: storage)
let client = TabBarClient(configuration: configuration)
print("consumer: a TabBarClient for client \(client.configuration.client) at \(client.configuration.baseURL)")
try? FileManager.default.removeItem(at: storage)
