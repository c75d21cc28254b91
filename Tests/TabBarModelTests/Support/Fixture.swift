import Foundation
import TestSupport

/// Files of the shared `Tests/Fixtures` folder, found relative to this source file.
enum Fixture {
    static let directory = Repository.url("Tests/Fixtures")

    /// The bytes of a fixture file.
    static func data(_ name: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(name))
    }
}
