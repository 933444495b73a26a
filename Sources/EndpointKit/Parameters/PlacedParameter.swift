/// A property wrapper that sends its value somewhere other than the method's default place.
package protocol PlacedParameter {
    var placement: Placement { get }
    var parameterValue: any Encodable { get }
}

/// Where a wrapped property goes.
package enum Placement {
    case query
    case header(String)
}
