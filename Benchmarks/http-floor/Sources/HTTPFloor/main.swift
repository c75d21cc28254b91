// tabconfig's HTTP layer with nothing on top: MicroHTTP answering a GET or HEAD of each given path from its head
// with one ``PreparedResponse`` (the file's bytes and the header fields listed in FIELDS, `Name: value` a line), as
// tabconfig answers its hot paths; 404 for any other path. No handler, catalog, targeting or metrics run, so what it
// costs is what any tabconfig answer costs at least: the floor of Benchmarks/reads.py. Listens on 127.0.0.1:PORT
// until SIGTERM or SIGINT.
//
//     HTTPFloor PORT THREADS PATH=FILE[,FIELDS] [PATH=FILE[,FIELDS]…]

import Foundation
import Logging
import MicroHTTP

/// The prepared answer of each path, found from the request head by comparing bytes, as the ceiling compares C
/// strings (a `String` made of the path for a dictionary lookup would cost an allocation the service's router does
/// not make).
struct FloorResponder: Responder {
    let answers: [(path: [UInt8], response: Response)]

    func headAnswer(to head: RequestHead) -> Response? {
        head.withPath(answer)
    }

    func respond(to request: consuming Request) -> Response {
        answer(request.path.utf8)
    }

    /// The prepared answer of `path`, else 404.
    private func answer(_ path: some Sequence<UInt8>) -> Response {
        answers.first { $0.path.elementsEqual(path) }?.response ?? Self.notFound
    }

    private static let notFound = Response(status: 404)
}

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3, let port = Int(arguments[0]), let threads = Int(arguments[1]), threads > 0 else {
    fail("usage: HTTPFloor PORT THREADS PATH=FILE[,FIELDS] [PATH=FILE[,FIELDS]…]", status: 2)
}

var answers: [(path: [UInt8], response: Response)] = []
for route in arguments.dropFirst(2) {
    guard let separator = route.firstIndex(of: "=") else {
        fail("not PATH=FILE[,FIELDS]: \(route)", status: 2)
    }
    let files = route[route.index(after: separator)...].split(separator: ",", maxSplits: 1).map(String.init)
    guard let body = FileManager.default.contents(atPath: files[0]) else {
        fail("cannot read \(files[0])", status: 1)
    }
    var headers = HTTPHeaders()
    if files.count == 2 {
        guard let fields = FileManager.default.contents(atPath: files[1]) else {
            fail("cannot read \(files[1])", status: 1)
        }
        for line in String(decoding: fields, as: UTF8.self).split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(
                name: String(line[..<colon]),
                value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
    }
    answers.append(
        (Array(route[..<separator].utf8), Response(prepared: PreparedResponse(status: 200, headers: headers, body: body))))
}

var configuration = Server.Configuration()
configuration.port = port
configuration.threadPoolSize = threads
let server = Server(
    configuration: configuration, responder: FloorResponder(answers: answers), logger: Logger(label: "http-floor"))
do {
    try server.start()
} catch {
    fail("\(error)", status: 1)
}
while true {
    pause()
}
