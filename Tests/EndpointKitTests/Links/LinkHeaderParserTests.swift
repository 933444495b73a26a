@testable import EndpointKit
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Foundation
import Testing

/// RFC 8288 `Link` headers, parsed into links with resolved targets.
@Suite struct LinkHeaderTests {
    static let base = URL(string: "https://api.example.com/repos/a/b/branches?page=1")!

    struct Case: Sendable, CustomTestStringConvertible {
        let header: String
        let links: [(url: String, relations: [String], parameters: [String: String])]
        var testDescription: String { header }
    }

    static let cases: [Case] = [
        // RFC 8288 §3.5's examples.
        Case(header: #"<http://example.com/TheBook/chapter2>; rel="previous"; title="previous chapter""#,
             links: [("http://example.com/TheBook/chapter2", ["previous"], ["title": "previous chapter"])]),
        Case(header: #"</>; rel="http://example.net/foo""#,
             links: [("https://api.example.com/", ["http://example.net/foo"], [:])]),
        Case(header: ##"</terms>; rel="copyright"; anchor="#foo""##,
             links: [("https://api.example.com/terms", ["copyright"], ["anchor": "#foo"])]),
        Case(header: #"<http://example.org/>; rel="start http://example.net/relation/other""#,
             links: [("http://example.org/", ["start", "http://example.net/relation/other"], [:])]),
        // GitHub's shape: two links in one header, unquoted and quoted relations, query kept.
        Case(header: #"<https://api.github.com/repositories/1/branches?per_page=2&page=2>; rel="next", <https://api.github.com/repositories/1/branches?per_page=2&page=9>; rel=last"#,
             links: [("https://api.github.com/repositories/1/branches?per_page=2&page=2", ["next"], [:]),
                     ("https://api.github.com/repositories/1/branches?per_page=2&page=9", ["last"], [:])]),
        // A registry's relative catalog link, resolved against the response URL.
        Case(header: #"</v2/_catalog?last=b&n=2>; rel="next""#,
             links: [("https://api.example.com/v2/_catalog?last=b&n=2", ["next"], [:])]),
        Case(header: #"<?page=2>; rel=next"#,
             links: [("https://api.example.com/repos/a/b/branches?page=2", ["next"], [:])]),
        // Commas and semicolons inside the target and inside quoted strings do not split.
        Case(header: #"<https://x.test/a,b;c>; rel="next"; title="one, two; three""#,
             links: [("https://x.test/a,b;c", ["next"], ["title": "one, two; three"])]),
        // Case, whitespace, escapes, repeated parameters, a parameter without a value.
        Case(header: #"  <https://x.test/1> ;REL = "NEXT" ; rel="last" ; Title="a \"q\"" ; title=x ; crossorigin"#,
             links: [("https://x.test/1", ["next"], ["title": #"a "q""#, "crossorigin": ""])]),
        // Malformed links are skipped; the good ones remain.
        Case(header: #"https://no-brackets.test; rel=next, <https://x.test/ok>; rel="next""#,
             links: [("https://x.test/ok", ["next"], [:])]),
        Case(header: #"<https://x.test/unterminated; rel=next"#, links: []),
        Case(header: #"<https://x.test/a>; rel="never closed, <https://x.test/b>; rel=next"#, links: []),
        Case(header: "", links: []),
        Case(header: ",,, ,", links: []),
        Case(header: #"<https://x.test/a>; =value, <https://x.test/b>; rel=next"#,
             links: [("https://x.test/b", ["next"], [:])]),
        Case(header: #"<https://x.test/a b>; rel=next"#,
             links: [("https://x.test/a%20b", ["next"], [:])]),
    ]

    @Test(arguments: cases)
    func `links parse as RFC 8288 says`(example: Case) {
        let links = WebLinks(header: example.header, base: Self.base)
        #expect(links.map(\.url.absoluteString) == example.links.map(\.url))
        #expect(links.map(\.relations) == example.links.map(\.relations))
        #expect(links.map(\.parameters) == example.links.map(\.parameters))
    }

    @Test func `a relation is looked up in any case, the first match wins`() {
        let links = WebLinks(header: #"<https://x.test/1>; rel="next", <https://x.test/2>; rel="Next last""#, base: nil)
        #expect(links["NEXT"]?.url.absoluteString == "https://x.test/1")
        #expect(links["last"]?.url.absoluteString == "https://x.test/2")
        #expect(links["prev"] == nil)
        #expect(links.count == 2)
    }

    @Test func `a huge header parses in one pass`() {
        let header = Array(repeating: #"<https://x.test/p>; rel="item"; title="a, b""#, count: 20_000).joined(separator: ", ")
        #expect(WebLinks(header: header, base: nil).count == 20_000)
    }
}
