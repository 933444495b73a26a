import EndpointKit
import EndpointKitTools
import Foundation

/// The `requestState` of a confirmation: what was asked (the tool, a digest of its arguments), of
/// whom (the caller's binding), until when, and a nonce, signed with HMAC-SHA256. The client must
/// bring it back unchanged; everything in it is checked before the call is sent.
struct ConfirmationState: Equatable, Sendable {
    let binding: String
    let tool: String
    let argumentsDigest: String
    let expiry: Int64
    let nonce: String

    /// Why a `requestState` is refused.
    enum Refusal: Error, Equatable {
        case malformed, forged, expired, otherCall, otherCaller, spent

        var reason: String {
            switch self {
            case .malformed: "it is not a requestState this server wrote"
            case .forged: "its signature does not match: it was changed, or signed with another key"
            case .expired: "it has expired: ask again"
            case .otherCall: "it was given for another tool or other arguments"
            case .otherCaller: "it was given to another caller"
            case .spent: "it has been used already: each confirmation sends one call"
            }
        }
    }

    /// `v1.<payload>.<signature>`, both base64url without padding.
    func sealed(key: Data) -> String {
        let payload = JSONValue.object([
            "b": .string(binding), "t": .string(tool), "a": .string(argumentsDigest),
            "e": .integer(expiry), "n": .string(nonce),
        ]).jsonText()
        let signature = SHA256.authenticationCode(for: Data(payload.utf8), key: [UInt8](key))
        return "v1." + Self.base64URL(Data(payload.utf8)) + "." + Self.base64URL(Data(signature))
    }

    /// The state in `text`, when its signature is `key`'s.
    static func opened(_ text: String, key: Data) throws(Refusal) -> ConfirmationState {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "v1", let payload = data(base64URL: parts[1]), let signature = data(base64URL: parts[2]) else {
            throw .malformed
        }
        // Base64 leaves the last character's low bits unused, so four spellings decode to the same
        // bytes: only the one this server writes is accepted, and any other change is a change.
        guard base64URL(payload) == parts[1], base64URL(signature) == parts[2] else { throw .forged }
        let expected = SHA256.authenticationCode(for: payload, key: [UInt8](key))
        // Compared in full, whatever differs: no early exit for a timing to measure.
        guard signature.count == expected.count, zip(signature, expected).reduce(0, { $0 | ($1.0 ^ $1.1) }) == 0 else { throw .forged }
        guard let value = try? JSONParser.parse(String(decoding: payload, as: UTF8.self)),
              let binding = value["b"]?.stringValue, let tool = value["t"]?.stringValue, let digest = value["a"]?.stringValue,
              let expiry = value["e"]?.doubleValue.flatMap({ Int64(exactly: $0) }), let nonce = value["n"]?.stringValue else {
            throw .malformed
        }
        return ConfirmationState(binding: binding, tool: tool, argumentsDigest: digest, expiry: expiry, nonce: nonce)
    }

    /// SHA-256 of the arguments in a canonical form (object keys sorted at every depth), so that
    /// the same arguments in another key order are the same call, and any other change is not.
    static func digest(of arguments: JSONValue) -> String {
        SHA256.hash(Data(canonical(arguments).jsonText().utf8)).map { String(format: "%02x", $0) }.joined()
    }

    private static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            .object(members.map { JSONValue.Member(key: $0.key, value: canonical($0.value)) }.sorted { $0.key < $1.key })
        case .array(let elements):
            .array(elements.map(canonical))
        default:
            value
        }
    }

    static func nonce() -> String {
        base64URL(Data((0..<16).map { _ in UInt8.random(in: .min ... .max) }))
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static func data(base64URL text: Substring) -> Data? {
        guard text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }
}
