import Foundation

/// The user a bearer token names: the `sub` claim of a JWT's payload, read without verifying the token. The service
/// verifies every token; the client only tells users apart, so that one user's files are never another's.
enum TokenSubject {
    /// The `sub` of `token`'s payload; nil when there is no token, it is not a JWT, or it names no one.
    static func of(_ token: String?) -> String? {
        guard let token else { return nil }
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let payload = base64URLDecoded(parts[1]),
            let subject = try? JSONDecoder().decode(Claims.self, from: payload).sub, !subject.isEmpty
        else { return nil }
        return subject
    }

    private struct Claims: Decodable {
        var sub: String?
    }

    /// Unpadded base64url (RFC 7515 §2) to bytes; nil when it is not.
    private static func base64URLDecoded(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
