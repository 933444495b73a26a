import Foundation

/// The JSON encoder and decoder an ``APIServer`` holds, in a box that is `Sendable` on every OS
/// EndpointKit supports.
///
/// `JSONEncoder` and `JSONDecoder` are `Sendable` only from iOS 16, macOS 13, tvOS 16 and
/// watchOS 9 (and on Linux); storing them in `APIServer` directly would not compile for iOS 15 or
/// macOS 12 in Swift 6 mode. `@unchecked` is sound because EndpointKit only ever calls
/// `encode(_:)` and `decode(_:from:)` and reads their strategies, which are thread-safe on every
/// version: each call copies the options before it starts. Changing a coder's settings while calls
/// are running is what ``APIServer/encoder`` and ``APIServer/decoder`` document against.
package final class JSONCoders: @unchecked Sendable {
    let encoder: JSONEncoder
    package let decoder: JSONDecoder

    package init(encoder: JSONEncoder, decoder: JSONDecoder) {
        self.encoder = encoder
        self.decoder = decoder
    }
}
