import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Checks a response and decodes the endpoint's payload from it.
///
/// A 2xx status is required, except that a `304 Not Modified` gives `nil` for an optional
/// payload. ``EmptyPayload`` ignores the body, `Data` takes it as it is, `String`
/// reads it as text in its charset, an optional payload is `nil` when the body is empty; any other
/// payload needs a non-empty body with a JSON content type (`application/json` or `…+json`).
package enum ResponseDecoder {
    static func decode<Payload: Decodable>(
        _ type: Payload.Type,
        from body: Data,
        response: HTTPURLResponse,
        request: URLRequest,
        decoder: JSONDecoder,
        errorPayloadType: (any (Decodable & Sendable).Type)? = nil,
        delivered: (any Sendable)? = nil
    ) throws(EndpointError) -> Payload {
        func failure(_ kind: EndpointError.Kind, _ reason: String, _ underlying: (any Error)? = nil) -> EndpointError {
            EndpointError(
                kind: kind, route: EndpointError.route(of: request), reason: reason, request: request,
                response: response, responseBody: body, underlyingError: underlying)
        }

        let status = response.statusCode
        if status == 304, let absent = nilValue(of: Payload.self) {
            return absent  // a conditional request whose answer has not changed: a normal outcome
        }
        guard (200..<300).contains(status) else {
            var errorPayload: (any Sendable)?
            var errorPayloadFailure: (any Error)?
            if let errorPayloadType, !body.isEmpty {
                do {
                    errorPayload = try decoder.decode(errorPayloadType, from: body)
                } catch {
                    errorPayloadFailure = error  // kept, so that a mismatch is never silently nil
                }
            }
            let advice = status == 304
                ? " to a conditional request; declare the payload optional (nil means unchanged) or add an HTTPCache middleware"
                : ""
            throw EndpointError(
                kind: .unacceptableStatus, route: EndpointError.route(of: request),
                reason: "the server answered \(EndpointError.statusText(status))\(advice)", request: request,
                response: response, responseBody: body, errorPayload: errorPayload,
                errorPayloadDecodingError: errorPayloadFailure)
        }
        if let delivered, let payload = delivered as? Payload {
            return payload  // delivered decoded by the transport (a stub, TransportContext.deliver(_:))
        }
        if Payload.self == EmptyPayload.self, let empty = EmptyPayload() as? Payload {
            return empty
        }
        if Payload.self == Data.self, let data = body as? Payload {
            return data  // raw bytes, whatever the content type
        }
        var payloadName: String { String(reflecting: Payload.self) }  // only for messages: it is costly
        if Payload.self == String.self {
            let contentType = response.value(forHTTPHeaderField: "Content-Type")
            guard let text = TextDecoding.string(from: body, contentType: contentType) as? Payload else {
                throw failure(.decodingFailed,
                    "the server answered \(EndpointError.statusText(status)), but the body is not valid \(TextDecoding.charsetName(in: contentType)) text")
            }
            return text
        }
        if body.isEmpty, let absent = nilValue(of: Payload.self) {
            return absent  // 204, HEAD or an empty body for an optional payload
        }
        guard !body.isEmpty else {
            throw failure(.decodingFailed,
                "the server answered \(EndpointError.statusText(status)) with no body, but \(payloadName) is decoded from JSON; use EmptyPayload (or an optional payload) for endpoints that may return nothing")
        }
        let contentType = response.value(forHTTPHeaderField: "Content-Type")
        guard let contentType, isJSON(contentType) else {
            throw failure(.unexpectedContentType,
                "the server answered \(EndpointError.statusText(status)) with \(contentType.map { "Content-Type \($0)" } ?? "no Content-Type"), but \(payloadName) is decoded from JSON")
        }
        do {
            return try decoder.decode(Payload.self, from: body)
        } catch let error as DecodingError {
            throw failure(.decodingFailed,
                "the server answered \(EndpointError.statusText(status)), but the body could not be decoded as \(payloadName): \(CodingPathText.describe(error))\(hint(for: error, decoder: decoder))", error)
        } catch {
            throw failure(.decodingFailed,
                "the server answered \(EndpointError.statusText(status)), but the body could not be decoded as \(payloadName): \(error)", error)
        }
    }

    /// How to fix a missing key that a snake_case decoder can never find: the key strategy
    /// (Foundation's `.convertFromSnakeCase`, or EndpointKit's default, which reads as `.custom`)
    /// turns the JSON's keys into camelCase *before* matching them, so a `CodingKeys` raw value in
    /// snake_case (`case lastModified = "last_modified"`) never matches.
    static func hint(for error: DecodingError, decoder: JSONDecoder) -> String {
        guard case .keyNotFound(let key, let context) = error, key.stringValue.utf8.contains(UInt8(ascii: "_")) else { return "" }
        let camel: String
        switch decoder.keyDecodingStrategy {
        case .convertFromSnakeCase: camel = SnakeCase.fromSnakeCase(key.stringValue)
        case .custom(let convert): camel = convert(context.codingPath + [key]).stringValue
        default: return ""
        }
        guard camel != key.stringValue else { return "" }  // the strategy leaves such a key alone
        return ". The decoder converts the JSON's snake_case keys to camelCase before matching, so a CodingKeys raw value must be written \"\(camel)\" (or left out), not \"\(key.stringValue)\"; or decode with keyDecodingStrategy = .useDefaultKeys"
    }

    /// Whether a `Content-Type` value names JSON: `application/json` or any `+json` type.
    static func isJSON(_ contentType: String) -> Bool {
        if contentType == "application/json" || contentType.hasPrefix("application/json;") {
            return true  // the common case, without lowercasing or trimming
        }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        let trimmed = mediaType.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed == "application/json" || (trimmed.hasPrefix("application/") && trimmed.hasSuffix("+json"))
    }

}
