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
}
