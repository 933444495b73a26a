/// `Optional`, seen from generic code that holds a `T` and must make "no value" when `T` is an
/// optional type: a payload the server sent no body for (`Cheer?` on a 204 or 304), or a wrapped
/// parameter the caller left out (`@QueryItem var dryRun: Bool?`).
protocol OptionalValue {
    static var absent: Self { get }
}

extension Optional: OptionalValue {
    static var absent: Self { nil }
}

/// `nil` as a `T` when `T` is an optional type (`.some(nil)`); `nil` (no `T`) otherwise.
func nilValue<T>(of type: T.Type) -> T? {
    guard let optional = type as? any OptionalValue.Type else { return nil }
    return optional.absent as? T
}
