import Foundation
import MicroHTTP
import TabBarModel
import TabBarStore

/// Build manifests (docs/design/model.md, "Build manifests"): each app build's CI registers what the build can open,
/// and the tab bars that build reads leave out what it cannot. Registering and removing take a `publish` key and are
/// in the audit log, reading takes a `read` key.
struct BuildHandlers: Sendable {
    let catalog: Catalog
    let admin: AdminAccess

    /// `PUT /v1/clients/{client}/builds/{platform}/{appVersion}`: registers the body as the build's manifest; 201 for
    /// a new one, 200 when it replaced one or equals the one registered (which writes nothing).
    func putBuild(_ request: Request) throws -> Response {
        let key = try admin.requireScope(.publish, request)
        let client = try request.clientID()
        let build = try request.appBuild()
        let manifest: BuildManifest
        switch BuildManifest.decode(json: try request.jsonBody()) {
        case .success(let decoded): manifest = decoded
        case .failure(.malformedJSON(let detail)): throw APIError.malformed(detail)
        case .failure(.invalid(let problems)):
            throw APIError.invalidDocument("The build manifest is not valid; nothing was registered.", problems)
        }
        let registered = try catalog.registerBuild(
            client: client, build: build, document: manifest.encoded(),
            audit: .changingBuild(.registerBuild, key: key, request: request))
        var response = Response.json(
            BuildBody(registered.build, manifest: manifest), status: registered.change == .created ? 201 : 200)
        response.headers.add(name: "ETag", value: EntityTag.build(revision: registered.build.revision))
        return response
    }

    /// `GET /v1/clients/{client}/builds/{platform}/{appVersion}`: the build's manifest, with its ETag; 404 when none
    /// is registered.
    func getBuild(_ request: Request) throws -> Response {
        try admin.requireScope(.read, request)
        let client = try request.clientID()
        let build = try request.appBuild()
        guard let registered = catalog.builds(of: client)[build] else {
            throw APIError.notFound("Client '\(client)' has no manifest for build \(build).")
        }
        let validators = CacheValidators(
            etag: EntityTag.build(revision: registered.stored.revision), cacheControl: CachePolicy.privateCacheControl,
            variesByLanguage: false)
        if let notModified = validators.notModified(request) { return notModified }
        let body = BuildBody(registered.stored, manifest: registered.manifest)
        return validators.jsonResponse(CanonicalJSON.encode(body))
    }

    /// `DELETE /v1/clients/{client}/builds/{platform}/{appVersion}`: removes the build's manifest (204); the build
    /// then gets what targeting gives it. 404 when none is registered.
    func deleteBuild(_ request: Request) throws -> Response {
        let key = try admin.requireScope(.publish, request)
        let client = try request.clientID()
        let build = try request.appBuild()
        let audit = AuditRecord.changingBuild(.removeBuild, key: key, request: request)
        guard try catalog.deleteBuild(client: client, build: build, audit: audit) else {
            throw APIError.notFound("Client '\(client)' has no manifest for build \(build).")
        }
        return .noContent
    }

    /// `GET /v1/clients/{client}/builds`: the client's registered builds, by platform and app version.
    func listBuilds(_ request: Request) throws -> Response {
        try admin.requireScope(.read, request)
        let client = try request.clientID()
        let builds = catalog.builds(of: client).sorted { $0.key < $1.key }.map(\.value)
        return .json(
            BuildList(
                client: client,
                builds: builds.map {
                    BuildSummary(
                        platform: $0.stored.platform, appVersion: $0.stored.appVersion,
                        buildNumber: $0.manifest.buildNumber, registeredAt: $0.stored.registeredAt,
                        names: $0.manifest.nameCount)
                }))
    }
}

/// The answer of `PUT` and `GET …/builds/{platform}/{appVersion}`.
struct BuildBody: Encodable {
    var client: String
    var platform: String
    var appVersion: String
    var registeredAt: Date
    /// How many names the manifest holds.
    var names: Int
    var manifest: BuildManifest

    init(_ stored: StoredBuild, manifest: BuildManifest) {
        client = stored.client
        platform = stored.platform
        appVersion = stored.appVersion
        registeredAt = stored.registeredAt
        names = manifest.nameCount
        self.manifest = manifest
    }
}

/// One entry of `GET …/builds`.
struct BuildSummary: Encodable {
    var platform: String
    var appVersion: String
    var buildNumber: String?
    var registeredAt: Date
    var names: Int
}

/// The answer of `GET …/builds`.
struct BuildList: Encodable {
    var client: String
    var builds: [BuildSummary]
}
