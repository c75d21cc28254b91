import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

/// `openapi-client-check BASE_URL ADMIN_TOKEN`: the client swift-openapi-generator makes from openapi.yaml, in its
/// default `Configuration()` (the runtime's default date transcoder), against a running tabconfig served with
/// `TABCONFIG_CACHE_MAX_AGE=60`, with one middleware for the runtime's percent-encoded `If-None-Match`
/// (`UnescapedEntityTags`). One line per call, then "N operations decoded, M failed"; exits 1 on any failure.
@main
struct OpenAPIClientCheck {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count == 3, let serverURL = URL(string: arguments[1]) else {
            print("usage: openapi-client-check BASE_URL ADMIN_TOKEN")
            exit(2)
        }
        let client = Client(
            serverURL: serverURL, configuration: Configuration(),
            transport: URLSessionTransport(configuration: .init(session: .revalidating())),
            middlewares: [AdminBearer(token: arguments[2]), UnescapedEntityTags()])
        let checklist = Checklist()
        let counter = RequestCounter(client: client)
        await OperationRun(client: client, checklist: checklist, counter: counter).all()
        await CacheProbe(serverURL: serverURL, counter: counter).run(checklist)
        print("not driven: none (getTabEvents reads its stream until the client's deletion ends it)")
        print(checklist.summary)
        exit(checklist.passed ? 0 : 1)
    }
}
