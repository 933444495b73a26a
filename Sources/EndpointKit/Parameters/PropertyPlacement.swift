import Foundation

/// Where one top-level property of an endpoint goes: decided here once, for the request that is
/// sent (`ParameterEncoder` and the body encoder) and for its description (the OpenAPI document
/// and the LLM tool schema of `EndpointKitContract` and `EndpointKitTools`), so that the two cannot
/// disagree.
package enum PropertyPlacement: Equatable {
    /// Not sent: the endpoint's own ``Restful`` description.
    case none
    /// The path placeholder of that name.
    case path(String)
    /// The query string (`@QueryItem`).
    case query
    /// The header of that name (`@HeaderField`).
    case header(String)
    /// The whole JSON or raw body (`@Body`).
    case wholeBody
    /// Where the method sends properties, as a list in that style (`@EncodedArray`).
    case styledArray(ArrayEncoding)
    /// Where the method sends properties: the query for `GET`, `HEAD` and `DELETE`, else the body.
    case `default`

    /// The placement of `value`, stored under `key`, for a path whose placeholders are `pathNames`.
    ///
    /// A placeholder matches the property's Swift name (`{recordId}` for
    /// `case recordId = "record_id"`) or else its coding key (`{record_id}`).
    /// Generic, not `Any`: boxing every property of every call into an existential before these
    /// casts cost about 900 instructions a POST (callgrind).
    package static func of<Value>(_ value: Value, forKey key: some CodingKey, pathNames: Set<String>) throws(MissingCaseNames) -> PropertyPlacement {
        if value is Restful { return .none }
        if let placeholder = try placeholder(for: key, in: pathNames) { return .path(placeholder) }
        switch value {
        case let placed as any PlacedParameter:
            switch placed.placement {
            case .query: return .query
            case .header(let name): return .header(name)
            }
        case is any WholeBody: return .wholeBody
        case let styled as any StyledArray: return .styledArray(styled.arrayEncoding)
        default: return .default
        }
    }

    /// The placeholder in `pathNames` that `key` binds, if any.
    package static func placeholder(for key: some CodingKey, in pathNames: Set<String>) throws(MissingCaseNames) -> String? {
        guard !pathNames.isEmpty else { return nil }
        // The usual case first: both names agree (finding the Swift name of a key costs more).
        if pathNames.contains(key.stringValue) { return key.stringValue }
        return try CodingKeyName.differingSwiftName(of: key).flatMap { pathNames.contains($0) ? $0 : nil }
    }
}
