import Foundation

// Benchmark helper: `BenchmarkSeeder <data-dir> [options]` fills a data directory with customizations through
// `FileStore`; see Seeder for the options.
do {
    try Seeder(arguments: Array(CommandLine.arguments.dropFirst())).run()
} catch {
    FileHandle.standardError.write(Data("BenchmarkSeeder: \(error)\n".utf8))
    exit(2)
}
