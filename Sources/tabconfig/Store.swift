import ArgumentParser

/// `tabconfig store`: offline checks of a data directory.
struct Store: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check or repair a data directory offline.",
        discussion: """
            `verify` reads the snapshot, the journal and every version file and reports valid records and damage. \
            `repair` keeps every valid record, moves damaged bytes to side files (<file>.damaged-<offset>-<time>) and \
            rewrites what needs it; it refuses while a server holds the directory.
            """,
        subcommands: [StoreVerify.self, StoreRepair.self])
}
