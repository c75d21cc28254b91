import ArgumentParser

/// `tabconfig`: serve remote tab bar configs, or check a config document offline.
@main
struct TabConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tabconfig",
        abstract: "Remote tab bar configuration for mobile apps.",
        subcommands: [Serve.self, Validate.self, ImportPlist.self],
        defaultSubcommand: Serve.self)
}
