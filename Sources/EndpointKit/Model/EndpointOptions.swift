/// The settings an endpoint gives the middlewares of its calls, by ``EndpointOptionKey``: each
/// middleware declares its own keys, so that a new one adds no requirement to ``Endpoint``.
///
/// ```swift
/// struct LiveScore: Endpoint {
///     var endpoint: Restful { Restful(.get, "scores/live") }
///     static var options: EndpointOptions { .init { $0.coalescesIdenticalRequests = false } }
///     struct ReturnPayloadType: Decodable, Sendable { let home: Int; let away: Int }
/// }
/// ```
public struct EndpointOptions: Sendable {
    private var values: [ObjectIdentifier: any Sendable] = [:]

    /// No setting changed: every key has its default.
    ///
    /// ```swift
    /// let options = EndpointOptions()
    /// ```
    public init() {}

    /// The settings that `change` makes to the defaults.
    ///
    /// ```swift
    /// static var options: EndpointOptions { .init { $0.coalescesIdenticalRequests = false } }
    /// ```
    public init(_ change: (inout EndpointOptions) -> Void) {
        change(&self)
    }

    /// The setting of `key`: the one an endpoint gave, else the key's default.
    ///
    /// ```swift
    /// let trips = context.options[TripsBreakerKey.self]
    /// ```
    public subscript<Key: EndpointOptionKey>(key: Key.Type) -> Key.Value {
        get {
            // An absent key is its default, never a `nil` an optional setting would cast to.
            guard let stored = values[ObjectIdentifier(key)], let value = stored as? Key.Value else { return Key.defaultValue }
            return value
        }
        set { values[ObjectIdentifier(key)] = newValue }
    }
}
