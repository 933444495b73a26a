/// A per-endpoint setting that a middleware (or a transport) owns: the key declares its value's
/// type and default, an endpoint changes it in its ``Endpoint/options``, and the middleware reads
/// it from ``MiddlewareContext/options``. Adding one touches only the middleware's own file.
///
/// ```swift
/// nonisolated enum TripsBreakerKey: EndpointOptionKey {
///     static var defaultValue: Bool { true }
/// }
/// nonisolated extension EndpointOptions {
///     /// Whether failures of this endpoint count toward opening the circuit breaker.
///     var tripsBreaker: Bool {
///         get { self[TripsBreakerKey.self] }
///         set { self[TripsBreakerKey.self] = newValue }
///     }
/// }
/// ```
public protocol EndpointOptionKey {
    /// The type of the setting.
    associatedtype Value: Sendable
    /// The setting of an endpoint that does not change it.
    static var defaultValue: Value { get }
}
