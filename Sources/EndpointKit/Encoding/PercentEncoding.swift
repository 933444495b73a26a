/// Percent-encoding with the RFC 3986 unreserved set, for query components and path segments.
enum PercentEncoding {
    /// `value` with every byte outside `A–Z a–z 0–9 - . _ ~` written as `%XX`.
    ///
    /// Form parsers decode the result to exactly `value`: `+`, `&`, `=`, `#`, `%`, `/`, spaces and
    /// non-ASCII text survive the round trip.
    static func encode(_ value: String) -> String {
        let utf8 = value.utf8
        if utf8.allSatisfy(isUnreserved) {
            return value
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
