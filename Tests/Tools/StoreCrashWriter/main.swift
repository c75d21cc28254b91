import Foundation

// Test helper: `StoreCrashWriter [--audit] <dir> <writerThreads> <seed> [<compactionThreshold>|- [<keepVersions>]]`.
// Writes to a FileStore until killed and prints one line per acknowledged write; see CrashWriter.
do {
    try CrashWriter(arguments: Array(CommandLine.arguments.dropFirst())).run()
} catch {
    FileHandle.standardError.write(Data("StoreCrashWriter: \(error)\n".utf8))
    exit(2)
}
