import ArgumentParser
import TabBarAPI

/// `tabconfig keys`: manages the admin keys file.
struct Keys: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add, remove or list the keys of an admin keys file.",
        discussion: """
            The file holds each key's name, scope and the SHA-256 of its token, never the token. A running server \
            puts a changed file in force on SIGHUP (kill -HUP <pid>). To rotate a key: add a new one, reload, move \
            the callers to it, remove the old one, reload.
            """,
        subcommands: [KeysAdd.self, KeysRemove.self, KeysList.self])
}

/// `tabconfig keys add`: adds a key with a new random token, printed once on standard output.
struct KeysAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a key with a new token (printed once on standard output; the file keeps its SHA-256).",
        discussion: "Creates the file when it does not exist. Scopes: read, publish (includes read), admin (all).")

    @OptionGroup var file: KeysFileOption
    @Option(help: "The key's name, recorded in the audit log: 1 to 64 of A-Z a-z 0-9 . _ -")
    var name: String
    @Option(help: "read, publish or admin.")
    var scope: String

    func validate() throws {
        guard AdminKey.isValidName(name) else { throw ValidationError("--name must be 1 to 64 of A-Z a-z 0-9 . _ -") }
        guard AdminScope(rawValue: scope) != nil else { throw ValidationError("--scope must be read, publish or admin") }
    }

    func run() throws {
        var keys = try file.read(missingIsEmpty: true)
        guard !keys.keys.contains(where: { $0.name == name }) else {
            StandardError.print("\(try file.url().path) already has a key named '\(name)'")
            throw ExitCode.failure
        }
        let token = AdminKey.generateToken()
        keys.keys.append(AdminKey(name: name, scope: AdminScope(rawValue: scope)!, token: token))
        try file.write(keys)
        print(token)
        StandardError.print(
            "added the \(scope) key '\(name)' to \(try file.url().path); send SIGHUP to running servers to put it in force")
    }
}

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

/// `tabconfig keys list`: the keys' names and scopes, one a line.
struct KeysList: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the keys' names and scopes.")

    @OptionGroup var file: KeysFileOption

    func run() throws {
        for key in try file.read().keys {
            print("\(key.name)\t\(key.scope.rawValue)")
        }
    }
}
