import Foundation
import MicroHTTPTesting
import TabBarModel

extension TestResponse {
    private struct ProblemBody: Decodable {
        var detail: String
        var errors: [ValidationProblem]?
    }

    /// The `errors` of a problem+json body, in order.
    func problems() throws -> [ValidationProblem] {
        try JSONDecoder().decode(ProblemBody.self, from: body).errors ?? []
    }

    /// The `detail` of a problem+json body.
    func problemDetail() throws -> String {
        try JSONDecoder().decode(ProblemBody.self, from: body).detail
    }
}
