/// The arguments of `@HeaderField("Name")` and `@EncodedArray(.style)` properties, which decoding
/// cannot restore: a decoded wrapper knows its value, not the name or style it was declared with.
///
/// While an endpoint is decoded to describe it, its property initializers still run, in
/// declaration order, before `init(from:)` replaces the wrappers: the wrappers' initializers
/// record their arguments here, and ``EndpointDescription`` matches them to the wrapped
/// properties, which `Mirror` lists in the same order.
final class WrapperLog: Sendable {
    enum Entry: Sendable, Equatable {
        case header(String)
        case arrays(ArrayEncoding)
    }

    /// The log of the description being made on this task, if any.
    @TaskLocal static var current: WrapperLog?

    private let recorded = Locked<[Entry]>([])

    var entries: [Entry] { recorded.withLock { $0 } }

    func record(_ entry: Entry) {
        recorded.withLock { $0.append(entry) }
    }
}
