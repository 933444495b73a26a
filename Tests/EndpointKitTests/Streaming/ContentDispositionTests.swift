@testable import EndpointKit
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Foundation
import Testing

@Suite struct ContentDispositionTests {
    @Test(arguments: [
        // RFC 6266's own examples (section 5).
        (#"Attachment; filename=example.html"#, "example.html"),
        (#"INLINE; FILENAME= "an example.html""#, "an example.html"),
        (#"attachment; filename*= UTF-8''%e2%82%ac%20rates"#, "€ rates"),
        (#"attachment; filename="EURO rates"; filename*=utf-8''%e2%82%ac%20rates"#, "€ rates"),
        // Quoted-pair, ISO-8859-1, a charset it does not read (falls back to filename).
        (#"attachment; filename="a \"quoted\" name.txt""#, "a quoted name.txt"),
        (#"attachment; filename*=iso-8859-1'en'%A3%20rates"#, "£ rates"),
        (#"attachment; filename="plain.txt"; filename*=x-unknown''abc"#, "plain.txt"),
    ])
    func `names are read as RFC 6266 and 8187 say`(header: String, name: String) {
        #expect(ContentDisposition.filename(in: header) == name)
    }

    @Test(arguments: [
        (#"attachment; filename="../../etc/passwd""#, "passwd"),
        (#"attachment; filename="..\..\boot.ini""#, "boot.ini"),
        (#"attachment; filename="..""#, nil),
        (#"attachment; filename=".bashrc""#, "bashrc"),
        (#"attachment; filename*=UTF-8''..%2F..%2Fx.sh"#, "x.sh"),
        (#"attachment; filename*=UTF-8''a%0Ab%00c.txt"#, "abc.txt"),
        (#"attachment; filename*=UTF-8''invoice%E2%80%AEfdp.exe"#, "invoicefdp.exe"),  // RIGHT-TO-LEFT OVERRIDE
        (#"attachment; filename="con:tainer?.txt""#, "container.txt"),
        ("attachment; filename=\"a/\u{301}b/\u{301}.\u{301}c\"", "\u{301}.\u{301}c"),  // a separator with a combining mark is still one
        ("attachment; filename=\"x/\u{5}\u{0}t\"", "t"),  // found by the fuzzer
        (#"attachment; filename="   ""#, nil),
        (#"attachment"#, nil),
        (#"attachment; filename*=UTF-8''%ZZ"#, nil),
        (#"attachment; filename*=UTF-8''%C3%28.txt"#, nil),  // not UTF-8: refused, not repaired
        (#"attachment; filename="plain.txt"; filename*=UTF-8''%C3%28.txt"#, "plain.txt"),
    ] as [(String, String?)])
    func `a hostile name is made safe or refused`(header: String, name: String?) {
        #expect(ContentDisposition.filename(in: header) == name)
    }

    @Test func `a long name is cut to 255 bytes and keeps its extension`() throws {
        let name = try #require(ContentDisposition.filename(in: "attachment; filename=\"\(String(repeating: "é", count: 300)).pdf\""))
        #expect(name.utf8.count <= 255)
        #expect(name.hasSuffix(".pdf") && name.hasPrefix("éé"))
    }
}
