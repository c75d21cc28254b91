import Foundation
import MicroHTTP

/// The admin console (`/admin/`): the HTML, CSS and JavaScript files of `Resources/admin`, read once at start and
/// answered as prepared responses (``PreparedAnswer``: compressed forms too) with a strong `ETag` and a strict
/// Content-Security-Policy. Nothing is read from
/// disk per request, so a console page keeps working while the files under it are replaced by an upgrade.
struct AdminConsole: Sendable {
    /// What a console page may load and run: its own scripts, styles, images and API calls; nothing inline (no
    /// `<script>` or `style` in the markup, no `eval`), nothing from another origin, no form posts, never framed.
    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self'", "connect-src 'self'",
        "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// The media types of the files served, by extension; other files of the directory (its README) are not served.
    static let mediaTypes = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "css": "text/css; charset=utf-8",
        "svg": "image/svg+xml", "json": "application/json; charset=utf-8", "png": "image/png",
    ]

    /// The page `/admin/` answers with.
    static let indexFile = "index.html"

    private let files: [String: PreparedAnswer]

    /// Reads every servable file of `directory` (not its subdirectories).
    init(directory: URL) throws {
        var files: [String: PreparedAnswer] = [:]
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        for name in names {
            let url = directory.appendingPathComponent(name)
            guard let mediaType = Self.mediaTypes[url.pathExtension],
                (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
            else { continue }
            files[name] = Self.file(body: try Data(contentsOf: url), mediaType: mediaType)
        }
        self.files = files
    }

    /// The console shipped in the module's resource bundle; fails when the bundle was not installed next to the
    /// executable.
    static func bundled() throws -> AdminConsole {
        guard let directory = Bundle.module.url(forResource: "admin", withExtension: nil) else {
            throw ConfigurationError(description: "the admin console is missing from the TabBarAPI resource bundle")
        }
        return try AdminConsole(directory: directory)
    }

    /// The answer for the file `name` in the coding `request` accepts: a `304` when its `If-None-Match` names it,
    /// else a `200`; nil when there is no such file, a `406` when the request accepts no coding of it.
    func response(for name: String, _ request: Request) throws -> Response? {
        try files[name]?.answer(request)
    }

    /// A file's `200` and `304` in each coding. Browsers revalidate at every load (`no-cache`), so an upgrade shows at
    /// once and an unchanged file costs a `304`.
    private static func file(body: Data, mediaType: String) -> PreparedAnswer {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Security-Policy", value: contentSecurityPolicy)
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        headers.add(name: "Referrer-Policy", value: "no-referrer")
        return PreparedAnswer(
            validators: CacheValidators(
                etag: EntityTag.content("a", body), cacheControl: "no-cache", variesByLanguage: false),
            body: body, contentType: mediaType, headers: headers)
    }
}
