/// The `@HeaderField("Name")` and `@EncodedArray(.style)` properties of an endpoint as it declares
/// them, which decoding alone cannot restore: a decoded wrapper knows its value, not the header
/// name or list style it was declared with.
///
/// While EndpointKit decodes an endpoint (to describe it, or from a model's tool arguments), its
/// property initializers still run, in declaration order, before the synthesized `init(from:)`
/// decodes the properties in that same order. The wrappers' initializers record themselves here,
/// and the `KeyedDecodingContainer` overloads for the wrappers take them back one by one.
package final class WrapperLog: Sendable {
    package enum Mode: Sendable {
        /// Describing the endpoint: the wrapper's value is probed, its declared name or style kept.
        case description
        /// Decoding a model's arguments: headers stay as declared (the model never sets them);
        /// lists take the model's values in the declared style.
        case toolCall
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
