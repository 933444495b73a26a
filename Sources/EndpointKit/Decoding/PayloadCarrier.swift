import Foundation

/// A response that brings its payload already decoded, which the decoding step hands over as it
/// is instead of reading the body: how `EndpointKitTesting`'s typed stubs answer.
///
/// It is the one seam test support has into the core's decoding: the core knows this protocol,
/// never the stub types that adopt it.
package protocol PayloadCarrier {
    /// The payload, of the endpoint's `ReturnPayloadType` when the stub was made for it.
    var carriedPayload: any Sendable { get }
}
