import Foundation
import Logging
import TabBarStore
import TestSupport

/// A `FileStore` in a unique temp directory.
struct FileStoreHarness: StoreHarness {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory("conformance")
    }

    func open() throws -> any TabBarStore {
        try FileStore(directory: directory.child("data"), logger: .silent)
    }

    func remove() {
        directory.remove()
    }
}
