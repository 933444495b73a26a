/// Coding paths as a person reads them: `history[0].comments[2].body`.
package enum CodingPathText {
    package static func render(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "the top level" }
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue == "\(index)" || key.stringValue.hasPrefix("Index ") {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }

    /// A sentence fragment naming what was wrong and where, e.g.
    /// `the key "creator" is missing at history[0]`.
    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            "the key \"\(key.stringValue)\" is missing at \(render(context.codingPath))"
        case .valueNotFound(let type, let context):
            "expected \(type) but found null at \(render(context.codingPath))"
        case .typeMismatch(let type, let context):
            "expected \(type) at \(render(context.codingPath)) (\(context.debugDescription))"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            "the body is not valid JSON (\(context.debugDescription))"
        case .dataCorrupted(let context):
            "invalid value at \(render(context.codingPath)) (\(context.debugDescription))"
        @unknown default:
            "\(error)"
        }
    }
}
