import ArgumentParser

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
