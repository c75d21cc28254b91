// A minimal Hummingbird 2 app that answers GET of each given path with the given file's bytes as
// `application/json`, read once at start and shared by every response; the Hummingbird reference of
// Benchmarks/reads.py. Listens on 127.0.0.1:PORT until SIGTERM or SIGINT.
//
//     HummingbirdReference PORT PATH=FILE [PATH=FILE…]

import Foundation
import Hummingbird
import Logging

let arguments = CommandLine.arguments.dropFirst()
guard let port = arguments.first.flatMap({ Int($0) }), arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: HummingbirdReference PORT PATH=FILE [PATH=FILE…]\n".utf8))
    exit(2)
}

let router = Router()
for route in arguments.dropFirst() {
    guard let separator = route.firstIndex(of: "="),
          let bytes = FileManager.default.contents(atPath: String(route[route.index(after: separator)...]))
    else {
        FileHandle.standardError.write(Data("cannot read the file of \(route)\n".utf8))
        exit(1)
    }
    let body = ByteBuffer(bytes: bytes)
    router.get(RouterPath(String(route[..<separator]))) { _, _ in
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: body))
    }
}

var logger = Logger(label: "hummingbird-reference")
logger.logLevel = .warning
let app = Application(
    router: router,
    configuration: .init(address: .hostname("127.0.0.1", port: port)),
    logger: logger
)
try await app.runService()
