import Foundation

/// Text bodies in the charset their `Content-Type` names (UTF-8 when it names none).
enum TextDecoding {
    static func string(from body: Data, contentType: String?) -> String? {
        guard let encoding = encoding(named: charsetName(in: contentType)) else { return nil }
        return String(data: body, encoding: encoding)
    }

    /// The `charset` parameter of a `Content-Type`, lowercased and unquoted; `utf-8` when absent.
    static func charsetName(in contentType: String?) -> String {
        guard let contentType else { return "utf-8" }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2,
                  pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            return pair[1].trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\""))).lowercased()
        }
        return "utf-8"
    }

    private static func encoding(named name: String) -> String.Encoding? {
        switch name {
        case "utf-8", "utf8": .utf8
        case "us-ascii", "ascii": .ascii
        case "iso-8859-1", "latin1", "iso_8859-1": .isoLatin1
        case "windows-1252", "cp1252": .windowsCP1252
        case "utf-16": .utf16
        case "utf-16le": .utf16LittleEndian
        case "utf-16be": .utf16BigEndian
        default: nil
        }
    }
}
