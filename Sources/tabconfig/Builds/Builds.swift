import ArgumentParser
import Foundation
import TabBarModel

/// `tabconfig builds register|list`: an app build's manifest registered from its CI, and the registered builds
/// (docs/targeting.md, "Build manifests").
struct Builds: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Register an app build's manifest with a running service, or list the registered builds.",
        subcommands: [Register.self, List.self])

    /// `tabconfig builds register --client C --platform P --app-version V [--build-number N] FILE`.
    struct Register: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register FILE (a build manifest's JSON, - for standard input) for one build of a client.",
            discussion: """
                The manifest lists what the build contains: {"viewControllers": [...], "nibs": [...], \
                "storyboards": [...], "urlSchemes": [...]}. The service then never sends that build a tab it cannot \
                open. Registering the same manifest again changes nothing. Run it from the build's CI, with a key of \
                the publish scope.
                Exit status:
                  0   registered (new, replaced, or equal to the one registered)
                  1   the service refused the manifest (each problem printed) or cannot be reached
                  2   FILE cannot be read
                  64  wrong usage
                """)

        @OptionGroup var server: ServerOptions
        @Option(help: "The client (app flavour) id.")
        var client: String
        @Option(help: "The build's platform, as the app sends it (ios, android).")
        var platform: String
        @Option(name: .customLong("app-version"), help: "The build's app version (5.2.0).")
        var appVersion: String
        @Option(name: .customLong("build-number"), help: "The build's own number, kept with the manifest.")
        var buildNumber: String?
        @Argument(help: "The manifest's JSON file, - for standard input.")
        var file: String

        func validate() throws {
            guard AppBuild.isValidPlatform(platform) else {
                throw ValidationError("--platform must match \(AppBuild.platformPattern), e.g. ios.")
            }
            guard AppBuild(platform: platform, appVersion: appVersion) != nil else {
                throw ValidationError("--app-version '\(appVersion)' is not a version (e.g. 5.2.0, 5.2.0-beta.1).")
            }
        }

        func run() throws {
            let input = InputFile(path: file)
            var body = try input.read()
            if let buildNumber {
                guard var manifest = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else {
                    StandardError.print("\(input.name): not a JSON object, so --build-number cannot be added to it")
                    throw ExitCode.failure
                }
                manifest["buildNumber"] = buildNumber
                body = try JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys])
            }
            let path = "/v1/clients/\(client)/builds/\(platform)/\(appVersion)"
            do {
                let reply = try server.client().send(
                    "PUT", path, headers: ["Content-Type": "application/json"], body: body)
                guard reply.status == 200 || reply.status == 201 else {
                    StandardError.print("\(input.name): the service refused the manifest")
                    reply.problemLines.forEach { StandardError.print($0) }
                    throw ExitCode.failure
                }
                let build = try reply.decode(RegisteredBuild.self, answering: path)
                print(
                    "\(client) \(build.platform) \(build.appVersion): \(reply.status == 201 ? "registered" : "up to date"), "
                        + "\(build.names) name\(build.names == 1 ? "" : "s")")
            } catch let failure as AdminClient.Failure {
                StandardError.print(failure.description)
                throw ExitCode.failure
            }
        }
    }

    /// `tabconfig builds list --client C`.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a client's registered builds: platform, app version, build number, names, when.")

        @OptionGroup var server: ServerOptions
        @Option(help: "The client (app flavour) id.")
        var client: String

        func run() throws {
            let path = "/v1/clients/\(client)/builds"
            do {
                let reply = try server.client().send("GET", path)
                guard reply.status == 200 else {
                    reply.problemLines.forEach { StandardError.print($0) }
                    throw ExitCode.failure
                }
                let list = try reply.decode(BuildList.self, answering: path)
                for build in list.builds {
                    print(
                        [
                            build.platform, build.appVersion, "build \(build.buildNumber ?? "-")",
                            "\(build.names) name\(build.names == 1 ? "" : "s")", "registered \(build.registeredAt)",
                        ].joined(separator: "  "))
                }
                if list.builds.isEmpty { print("\(client): no build registered") }
            } catch let failure as AdminClient.Failure {
                StandardError.print(failure.description)
                throw ExitCode.failure
            }
        }
    }

    /// What the commands read of a registered build.
    struct RegisteredBuild: Decodable {
        var platform: String
        var appVersion: String
        var buildNumber: String?
        var registeredAt: String
        var names: Int
    }

    /// What `list` reads of `GET …/builds`.
    struct BuildList: Decodable {
        var builds: [RegisteredBuild]
    }
}
