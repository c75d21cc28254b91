import Foundation

extension UserAuthenticator {
    /// A compact JWS (`header.payload.signature`) split and decoded, nothing verified yet.
    struct CompactToken {
        /// The protected header's `alg`, as written.
        var algorithm: String
        /// The protected header's `kid`, if any.
        var keyID: String?
        /// `header.payload`: the bytes the signature covers.
        var signingInput: ArraySlice<UInt8>
        /// The encoded payload, decoded only once the signature holds.
        var encodedPayload: ArraySlice<UInt8>
        /// The encoded signature.
        var encodedSignature: ArraySlice<UInt8>

        /// Splits `token` and decodes its header.
        init(_ token: [UInt8]) throws(UserAuthFailure) {
            let period = UInt8(ascii: ".")
            guard let first = token.firstIndex(of: period),
                let second = token[(first + 1)...].firstIndex(of: period),
                !token[(second + 1)...].contains(period)
            else {
                throw UserAuthFailure(reason: "malformed token: expected three dot-separated parts")
            }
            guard let headerJSON = Self.base64URLDecode(token[..<first]),
                let header = try? JSONDecoder().decode(Header.self, from: headerJSON)
            else {
                throw UserAuthFailure(reason: "malformed token: the header is not base64url-encoded JSON with an alg")
            }
            if let critical = header.crit, !critical.isEmpty {
                throw UserAuthFailure(reason: "unsupported critical header parameters")
            }
            algorithm = header.alg
            keyID = header.kid
            signingInput = token[..<second]
            encodedPayload = token[(first + 1)..<second]
            encodedSignature = token[(second + 1)...]
        }

        /// The decoded signature bytes.
        func signature() throws(UserAuthFailure) -> Data {
            guard !encodedSignature.isEmpty, let signature = Self.base64URLDecode(encodedSignature) else {
                throw UserAuthFailure(reason: "malformed token: the signature is missing or not base64url-encoded")
            }
            return signature
        }

        /// The decoded claims.
        func claims() throws(UserAuthFailure) -> Claims {
            guard let json = Self.base64URLDecode(encodedPayload) else {
                throw UserAuthFailure(reason: "malformed token: the payload is not base64url-encoded")
            }
            do {
                return try JSONDecoder().decode(Claims.self, from: json)
            } catch {
                throw UserAuthFailure(reason: "malformed token: the claims are not a JSON object of registered claims")
            }
        }

        /// Unpadded base64url (RFC 7515 §2) to bytes; `nil` for any other character or an impossible length.
        static func base64URLDecode(_ encoded: ArraySlice<UInt8>) -> Data? {
            guard encoded.count % 4 != 1 else { return nil }
            var base64 = [UInt8]()
            base64.reserveCapacity(encoded.count + 3)
            for byte in encoded {
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    base64.append(byte)
                case UInt8(ascii: "-"): base64.append(UInt8(ascii: "+"))
                case UInt8(ascii: "_"): base64.append(UInt8(ascii: "/"))
                default: return nil
                }
            }
            while base64.count % 4 != 0 { base64.append(UInt8(ascii: "=")) }
            return Data(base64Encoded: Data(base64))
        }
    }

    /// The protected header members this verifier reads.
    struct Header: Decodable {
        var alg: String
        var kid: String?
        var crit: [String]?
    }

    /// The registered claims this verifier checks; times are NumericDates (seconds since 1970, fractions allowed).
    struct Claims: Decodable {
        var sub: String?
        var iss: String?
        var aud: Audience?
        var exp: Double?
        var nbf: Double?
        var iat: Double?
    }

    /// `aud`: one string or an array of strings.
    struct Audience: Decodable {
        var values: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let single = try? container.decode(String.self) {
                values = [single]
            } else {
                values = try container.decode([String].self)
            }
        }
    }
}
