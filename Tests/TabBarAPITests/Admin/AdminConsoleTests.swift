import Foundation
import MicroHTTPTesting
import TabBarAPI
import Testing
import TestSupport

@Suite("/admin/: the console's files")
struct AdminConsoleTests {
    private static let policy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The console's folder in the repository, which the resource bundle copies.
    private static let folder = Repository.url("Sources/TabBarAPI/Resources/admin")

    @Test("every file of the folder is served with its media type, the policy and an ETag; 304 when it names it")
    func files() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted()
        let types = ["html": "text/html", "js": "text/javascript", "css": "text/css", "svg": "image/svg+xml"]
        try TestApp.with { app in
            var served = 0
            for name in names where name != "README.md" {
                let url = Self.folder.appendingPathComponent(name)
                let response = try app.request("GET", "/admin/\(name)")
                #expect(response.status == 200, "\(name)")
                #expect(response.body == (try Data(contentsOf: url)), "\(name)")
                let mediaType = try #require(types[url.pathExtension], "\(name) has an extension the console serves")
                #expect(response.headers["Content-Type"]?.hasPrefix(mediaType) == true, "\(name)")
                #expect(response.headers["Content-Security-Policy"] == Self.policy, "\(name)")
                #expect(response.headers["X-Content-Type-Options"] == "nosniff", "\(name)")
                #expect(response.headers["Cache-Control"] == "no-cache", "\(name)")
                let etag = try #require(response.headers["ETag"])
                let again = try app.request("GET", "/admin/\(name)", headers: [("If-None-Match", etag)])
                #expect(again.status == 304 && again.body.isEmpty, "\(name)")
                #expect(again.headers["Content-Security-Policy"] == Self.policy, "\(name)")
                served += 1
            }
            #expect(served >= 5)
        }
    }

    @Test("/admin/ is the page, /admin redirects to it; unknown files and the folder's README: 404 problem+json")
    func pageAndRefusals() throws {
        try TestApp.with { app in
            let page = try app.request("GET", "/admin/")
            #expect(page.status == 200)
            #expect(page.body == (try Data(contentsOf: Self.folder.appendingPathComponent("index.html"))))
            #expect(!page.text.contains("<script>") && !page.text.contains(" style="))
            let redirect = try app.request("GET", "/admin")
            #expect(redirect.status == 301)
            #expect(redirect.headers["Location"] == "/admin/")
            for path in ["/admin/README.md", "/admin/nothing.js", "/admin/..%2Fopenapi.yaml", "/admin/a/b.js"] {
                let missing = try app.request("GET", path)
                #expect(missing.status == 404, "\(path)")
                #expect(missing.headers["Content-Type"] == "application/problem+json", "\(path)")
            }
            #expect(try app.request("POST", "/admin/").status == 405)
            #expect(try app.request("HEAD", "/admin/index.html").status == 200)
        }
    }
}
