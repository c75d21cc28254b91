import Foundation
import MicroHTTP
import TabBarModel

extension Request {
    /// The `{client}` path parameter, checked against the client id pattern.
    func clientID() throws -> String {
        let client = pathParameters["client"] ?? ""
        guard Identifiers.isValidClient(client) else {
            throw APIError.invalidClient
        }
        return client
    }

    /// The `{user}` path parameter, checked against the user id pattern.
    func userID() throws -> String {
        try Self.userID(pathParameters["user"] ?? "")
    }

    /// `user`, checked against the user id pattern (400 when it does not match).
    static func userID(_ user: String) throws -> String {
        guard Identifiers.isValidUser(user) else {
            throw APIError.invalidParameter("user", "a user id matches \(Identifiers.userPattern)")
        }
        return user
    }

    /// The build the `{platform}` and `{appVersion}` path parameters name, its version in canonical form; 400 naming
    /// the parameter that is malformed.
    func appBuild() throws -> AppBuild {
        let platform = pathParameters["platform"] ?? ""
        guard AppBuild.isValidPlatform(platform) else {
            throw APIError.invalidParameter("platform", "a platform matches \(AppBuild.platformPattern)")
        }
        let appVersion = pathParameters["appVersion"] ?? ""
        guard let build = AppBuild(platform: platform, appVersion: appVersion) else {
            throw APIError.invalidParameter(
                "appVersion", "'\(appVersion.prefix(64))' is not a version (e.g. 5.2.0, 5.2.0-beta.1)")
        }
        return build
    }

    /// The `?locale=` query parameter, if present, checked to be a BCP 47 tag.
    func localeQuery() throws -> String? {
        guard let locale = query("locale") else { return nil }
        guard isValidLocaleTag(locale) else {
            throw APIError.invalidParameter("locale", "'\(locale)' is not a BCP 47 language tag")
        }
        return locale
    }

    /// The body, after checking that its declared content type is JSON.
    func jsonBody() throws -> Data {
        if let contentType = headers["Content-Type"], contentType != "application/json" {
            let mediaType = (contentType.split(separator: ";", maxSplits: 1).first ?? "")
                .withoutOptionalWhitespace.lowercased()
            guard mediaType == "application/json" || mediaType.hasSuffix("+json") else {
                throw APIError.unsupportedMediaType(contentType)
            }
        }
        guard !body.isEmpty else { throw APIError.malformed("The request body is empty; a JSON document is expected.") }
        return body
    }
}

extension Request {
    /// The `?note=` query parameter of a publish, at most 256 characters.
    func noteQuery() throws -> String? {
        guard let note = query("note") else { return nil }
        guard note.count <= 256 else { throw APIError.invalidParameter("note", "a note has at most 256 characters") }
        return note
    }

    /// The `?dryRun=` query parameter of a publish: `true` or `false` (the default), given at most once, so that a
    /// request never leaves in doubt whether it publishes.
    func dryRunQuery() throws -> Bool {
        let values = queryItems.filter { $0.name == "dryRun" }.map(\.value)
        guard let value = values.first else { return false }
        guard values.count == 1, value == "true" || value == "false" else {
            throw APIError.invalidParameter("dryRun", "dryRun is true or false, given at most once")
        }
        return value == "true"
    }

    /// Whether `text` is one or more ASCII digits (no sign, no space): what a number in a path or a query is.
    static func isDecimal(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// The `{version}` path parameter: a positive integer.
    func versionNumber() throws -> Int {
        let text = pathParameters["version"] ?? ""
        guard Self.isDecimal(text) else {
            throw APIError.invalidParameter("version", "a version is a positive integer")
        }
        guard let number = Int(text), number >= 1 else {
            throw APIError.notFound("There is no version \(text).")
        }
        return number
    }
}
