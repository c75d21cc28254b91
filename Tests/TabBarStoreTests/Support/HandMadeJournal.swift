import Foundation
@testable import TabBarStore

/// Frames payloads the way the journal does, for hand-made journals.
enum HandMadeJournal {
    static func bytes(_ payloads: [String]) -> Data {
        var data = JournalFile.magic
        for payload in payloads {
            RecordFraming.append(Data(payload.utf8), to: &data)
        }
        return data
    }
}
