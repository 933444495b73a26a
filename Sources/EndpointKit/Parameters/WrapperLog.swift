/// The `@HeaderField("Name")` and `@EncodedArray(.style)` properties of an endpoint as it declares
/// them, which decoding alone cannot restore: a decoded wrapper knows its value, not the header
/// name or list style it was declared with.
///
/// While an endpoint is decoded to probe its shape or from input (a product's use), its
/// property initializers still run, in declaration order, before the synthesized `init(from:)`
/// decodes the properties in that same order. The wrappers' initializers record themselves here,
/// and the `KeyedDecodingContainer` overloads for the wrappers take them back one by one.
package final class WrapperLog: Sendable {
    package enum Mode: Sendable {
        /// Probing the endpoint's shape: a header takes the probed value, its declared name kept.
        case probing
        /// Decoding input from outside the app: headers keep their declared values (input never
        /// sets a header); lists take the input's values in the declared style.
        case decodingInput
    }

    /// The log of the decoding running on this task, if any.
    @TaskLocal package static var current: WrapperLog?

    let mode: Mode
    private let declared = Locked<[any Sendable]>([])

    package init(mode: Mode) {
        self.mode = mode
    }

    func record(_ wrapper: any Sendable) {
        declared.withLock { $0.append(wrapper) }
    }

    /// The next declared wrapper, which must be a `W`.
    func next<W>(_ type: W.Type, at codingPath: [any CodingKey]) throws -> W {
        let wrapper = declared.withLock { $0.isEmpty ? nil : $0.removeFirst() }
        guard let typed = wrapper as? W else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath,
                debugDescription: "the property's declared \(W.self) was not found in declaration order; EndpointKit restores @HeaderField and @EncodedArray properties only through a synthesized init(from:), with an initial value on each"))
        }
        return typed
    }
}
