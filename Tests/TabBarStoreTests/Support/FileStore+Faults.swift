import Logging
import TestSupport
@testable import TabBarStore

extension FileStore {
    /// A store in `directory/data` whose fsyncs the returned injector can make fail.
    static func withFaults(in directory: TemporaryDirectory, logger: Logger = .silent) throws -> (FileStore, FaultInjector) {
        let faults = FaultInjector()
        var options = FileStore.Options()
        options.faultInjector = faults
        return (try FileStore(directory: directory.child("data"), options: options, logger: logger), faults)
    }
}
