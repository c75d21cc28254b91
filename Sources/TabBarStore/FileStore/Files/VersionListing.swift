import Foundation
import Glibc
import Logging

/// What one client's `versions` directory holds: its version files by number, and the numbers of version files
/// moved aside as damaged (side files `NNNNNN.json.damaged-…`), which stay used.
struct VersionListing {
    /// One version file.
    struct File {
        var number: Int
        var path: String
    }

    /// Version files, ascending by number.
    var files: [File] = []
    /// Numbers of version files that were moved aside.
    var setAsideNumbers: [Int] = []
    /// Paths of the side files.
    var sideFiles: [String] = []

    /// Lists `versionsDirectory`. With a logger, removes leftover temp files and warns about unexpected names; without
    /// one, only reads.
    init(_ versionsDirectory: String, io: FileIO, logger: Logger?) throws {
        for name in try io.contents(of: versionsDirectory) {
            let path = (versionsDirectory as NSString).appendingPathComponent(name)
            if name.hasSuffix(".tmp") {
                if let logger {
                    logger.notice("removing a leftover temp file", metadata: ["file": "\(path)"])
                    unlink(path)
                }
            } else if let number = VersionFile.number(fromFileName: name) {
                files.append(File(number: number, path: path))
            } else if let original = SideFile.originalName(of: name),
                let number = VersionFile.number(fromFileName: original)
            {
                setAsideNumbers.append(number)
                sideFiles.append(path)
            } else {
                logger?.warning("ignoring an unexpected file", metadata: ["file": "\(path)"])
            }
        }
        files.sort { $0.number < $1.number }
    }
}
