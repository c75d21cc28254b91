import ArgumentParser

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
