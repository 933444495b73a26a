import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A payload read from the response as it arrives (``ByteStream``, ``ServerSentEvents``,
/// ``JSONLines``) rather than decoded from a whole body: the one hook streaming has in the call
/// path (``Endpoint`` checks for it before sending).
package protocol StreamedPayload: Sendable {
    /// The `Accept` header to send unless the endpoint sets its own.
    static var acceptedTypes: String? { get }

    /// The payload reading `context.body`.
    static func reading(_ context: StreamContext) -> Self
}

/// What a streamed payload needs from the call that opened it.
package struct StreamContext: Sendable {
    let body: ByteStream
    let response: HTTPURLResponse
    package let request: URLRequest
    let coders: JSONCoders
    let errorPayloadType: (any (Decodable & Sendable).Type)?
    let options: StreamingOptions
    /// The most bytes one element (an event, a line) may hold.
    let maximumElementSize: Int
    /// The endpoint type, for ``EndpointError/operationID``.
    let endpointType: Any.Type
    /// The call's route, for ``EndpointError/route``.
    let route: String
    /// Sends the request again with a `Last-Event-ID` header (when not empty): the new body, or
    /// `nil` when the server answered 204 (stop reconnecting).
    let reopen: @Sendable (_ lastEventID: String) async throws -> ByteStream?

    /// An error about the stream's content, naming the call.
    func failure(
        _ kind: EndpointError.Kind, _ reason: String, body: Data? = nil,
        errorPayload: (any Sendable)? = nil, underlying: (any Error)? = nil
    ) -> EndpointError {
        EndpointError(
            kind: kind, route: EndpointError.route(of: request), reason: reason, request: request,
            response: response, responseBody: body, underlyingError: underlying, errorPayload: errorPayload)
        .naming(endpointType, route: route)
    }

    /// `data` decoded as `Payload` with the server's decoder; text is kept as it is. Data that
    /// does not decode but is the endpoint's error payload is thrown as a stream error.
    func decode<Payload: Decodable>(_ type: Payload.Type, from data: Data, what: String) throws -> Payload {
        if Payload.self == String.self, let text = String(decoding: data, as: UTF8.self) as? Payload {
            return text
        }
        if Payload.self == Data.self, let data = data as? Payload {
            return data
        }
        do {
            return try coders.decoder.decode(Payload.self, from: data)
        } catch {
            if let errorPayloadType, let payload = try? decode(errorPayload: errorPayloadType, from: data) {
                throw failure(.streamError, "the server reported an error in \(what)", body: data, errorPayload: payload)
            }
            let detail = (error as? DecodingError).map(CodingPathText.describe) ?? "\(error)"
            throw failure(
                .decodingFailed, "\(what) could not be decoded as \(String(reflecting: Payload.self)): \(detail)",
                body: data, underlying: error)
        }
    }

    /// `data` decoded as the endpoint's or server's error payload.
    func decode(errorPayload type: any (Decodable & Sendable).Type, from data: Data) throws -> any Sendable {
        try coders.decoder.decode(type, from: data)
    }
}

/// The message of a streamed payload's `init(from:)`: it is read from the response, never
/// decoded from JSON (a payload nested in another one, say).
func streamedPayloadIsNotDecodable(_ type: Any.Type, decoder: any Decoder) -> DecodingError {
    DecodingError.dataCorrupted(DecodingError.Context(
        codingPath: decoder.codingPath,
        debugDescription: "\(type) is read from a response as it streams; it cannot be decoded from JSON or be part of another payload"))
}
