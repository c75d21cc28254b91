import ArgumentParser
import TabBarAPI

/// `tabconfig`: serve remote tab bar configs, check a config document offline, export and apply configs kept as
/// files, or check and repair a data directory.
@main
struct TabConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tabconfig",
        abstract: "Remote tab bar configuration for mobile apps.",
        version: BuildInfo.version,
        subcommands: [
            Serve.self, Validate.self, ImportPlist.self, Export.self, Apply.self, Builds.self, Store.self,
            MigrateStore.self, Keys.self,
        ],
        defaultSubcommand: Serve.self)
}
