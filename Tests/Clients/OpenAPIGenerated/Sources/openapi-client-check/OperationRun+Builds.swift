/// Build manifests: a registration (201), the same again (200), one read (200, then 304 with its ETag), the list, and
/// the removal (204).
extension OperationRun {
    func builds() async {
        let path = Operations.RegisterBuild.Input.Path(client: Self.clientID, platform: "ios", appVersion: "5.2.0")
        let manifest = Components.Schemas.BuildManifest(
            buildNumber: "1234", viewControllers: ["HomeViewController", "Shop.ShopViewController"], nibs: ["ShopView"],
            storyboards: ["Main"], urlSchemes: ["myapp"])
        var etag: String?
        await checklist.call("registerBuild", "201 created") {
            let created = try await client.registerBuild(path: path, body: .json(manifest)).created
            etag = created.headers.eTag
            let build = try created.body.json
            try CheckFailure.expect(build.names == 5, "\(build.names) names")
            return "\(build.platform) \(build.appVersion), \(build.names) names, ETag \(etag ?? "none")"
        }
        await checklist.call("registerBuild", "200 equal") {
            let equal = try await client.registerBuild(path: path, body: .json(manifest)).ok
            try CheckFailure.expect(equal.headers.eTag == etag, "the ETag changed: \(equal.headers.eTag ?? "none")")
            return "unchanged, ETag \(equal.headers.eTag ?? "none")"
        }
        let getPath = Operations.GetBuild.Input.Path(client: Self.clientID, platform: "ios", appVersion: "5.2")
        await checklist.call("getBuild", "200") {
            let build = try await client.getBuild(path: getPath).ok.body.json
            return "\(build.manifest.viewControllers.count) view controllers, registered \(Self.text(build.registeredAt))"
        }
        await checklist.call("getBuild", "304") {
            _ = try await client.getBuild(path: getPath, headers: .init(ifNoneMatch: etag)).notModified
            return "not modified"
        }
        await checklist.call("listBuilds", "200") {
            let list = try await client.listBuilds(path: .init(client: Self.clientID)).ok.body.json
            return list.builds.map { "\($0.platform) \($0.appVersion) (\($0.names) names)" }.joined(separator: ", ")
        }
        await checklist.call("deleteBuild", "204") {
            _ = try await client.deleteBuild(
                path: .init(client: Self.clientID, platform: "ios", appVersion: "5.2.0")
            ).noContent
            return "removed"
        }
    }
}
