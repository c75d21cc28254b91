import ArgumentParser

/// `tabconfig keys remove`: removes a key by name.
struct KeysRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a key by name (servers refuse it once reloaded with SIGHUP).")

    @OptionGroup var file: KeysFileOption
    @Option(help: "The key's name.")
    var name: String

    func run() throws {
        var keys = try file.read()
        guard let index = keys.keys.firstIndex(where: { $0.name == name }) else {
            StandardError.print("\(try file.url().path) has no key named '\(name)'")
            throw ExitCode.failure
        }
        keys.keys.remove(at: index)
        try file.write(keys)
        StandardError.print(
            "removed the key '\(name)' from \(try file.url().path); send SIGHUP to running servers to refuse it")
    }
}
