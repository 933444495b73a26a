import EndpointKit
/// A streamed payload as OpenAPI describes a response: its media type and the type of each
/// element (an event's data, a line), if it has one.
protocol StreamedSchema {
    static var mediaType: String { get }
    static var elementType: (any Decodable.Type)? { get }
}

extension ServerSentEvents: StreamedSchema {
    static var mediaType: String { "text/event-stream" }
    static var elementType: (any Decodable.Type)? { Payload.self }
}

extension JSONLines: StreamedSchema {
    static var mediaType: String { "application/jsonl" }
    static var elementType: (any Decodable.Type)? { Row.self }
}

extension ByteStream: StreamedSchema {
    static var mediaType: String { "application/octet-stream" }
    static var elementType: (any Decodable.Type)? { nil }
}
