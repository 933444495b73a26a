@testable import EndpointKit
import EndpointKitTestSupport
@testable import EndpointKitContract
@testable import EndpointKitTesting
@testable import EndpointKitTools
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// GET, HEAD, DELETE and OPTIONS send their parameters as a query string.
@Suite struct QueryTests {
    /// The query string the endpoint sends, percent-encoding intact.
    func query(of endpoint: some Endpoint, encoder: JSONEncoder = APIServer.makeEncoder()) async throws -> String? {
        let transport = RecordingTransport()
        _ = try await endpoint.call(on: .stub(transport, encoder: encoder))
        let request = try transport.request
        #expect(request.httpBody == nil)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
        return request.url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.percentEncodedQuery }
    }

    struct Search: Endpoint {
        var endpoint: Restful { Restful(.get, "search") }
        var text: String = "swift"
        var pageSize: Int? = nil
        var tags: [String] = []
        var exact: Bool = false
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `keys are snake_case and nil is left out`() async throws {
        #expect(try await query(of: Search(pageSize: 20, exact: true)) == "text=swift&page_size=20&exact=true")
        #expect(try await query(of: Search()) == "text=swift&exact=false")
    }

    @Test func `arrays repeat their key`() async throws {
        #expect(try await query(of: Search(tags: ["a", "b", ""])) == "text=swift&tags=a&tags=b&tags=&exact=false")
    }

    @Test(arguments: [
        ("1+1=2", "1%2B1%3D2"),
        ("a&b", "a%26b"),
        ("#hash", "%23hash"),
        ("100%", "100%25"),
        ("two words", "two%20words"),
        ("a/b?c", "a%2Fb%3Fc"),
        ("Grüße, 世界 🎉", "Gr%C3%BC%C3%9Fe%2C%20%E4%B8%96%E7%95%8C%20%F0%9F%8E%89"),
        ("", ""),
        ("-._~", "-._~"),
        ("[x];'\"", "%5Bx%5D%3B%27%22"),
    ])
    func `values are percent-encoded with the unreserved set`(value: String, encoded: String) async throws {
        #expect(try await query(of: Search(text: value)) == "text=\(encoded)&exact=false")
    }

    struct Everything: Endpoint {
        var endpoint: Restful { Restful(.delete, "everything") }
        let big: UInt64 = .max
        let small: Int64 = .min
        let ratio: Double = 0.1
        let half: Float = 0.5
        let price: Decimal = Decimal(string: "12.34")!
        let link = URL(string: "https://example.com/a?b=c")!
        let id = UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!
        let when = Date(timeIntervalSince1970: 1_234_567_890)
        let raw = Data([0xFF, 0x00, 0x41])
        let color: Color = .deepRed
        let byUser: [String: Int] = ["zoeMiller": 2, "ann": 1]
        let nested = Nested()
        let matrix: [[Int]] = [[1, 2], [3]]
        let people = [Person(name: "a"), Person(name: "b")]
        let maybe: [Int?] = [1, nil, 3]
        enum Color: String, Encodable, Sendable { case deepRed = "deep_red" }
        struct Nested: Encodable, Sendable {
            var innerValue = "x y"
            var deeper = Deeper()
            var absent: String? = nil
            struct Deeper: Encodable, Sendable { var leafNode = true }
        }
        struct Person: Encodable, Sendable { let name: String }
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `every kind of value has one spelling`() async throws {
        let expected = [
            "big=18446744073709551615",
            "small=-9223372036854775808",
            "ratio=0.1",
            "half=0.5",
            "price=12.34",
            "link=https%3A%2F%2Fexample.com%2Fa%3Fb%3Dc",
            "id=00000000-0000-0000-0000-00000000000a",  // RFC 9562: lower case
            "when=2009-02-13T23%3A31%3A30Z",
            "raw=%2FwBB",
            "color=deep_red",
            "by_user%5Bann%5D=1&by_user%5BzoeMiller%5D=2",
            "nested%5Binner_value%5D=x%20y",
            "nested%5Bdeeper%5D%5Bleaf_node%5D=true",
            "matrix=1&matrix=2&matrix=3",
            "people%5Bname%5D=a&people%5Bname%5D=b",
            "maybe=1&maybe=3",
        ].joined(separator: "&")
        #expect(try await query(of: Everything()) == expected)
    }

    @Test func `the encoder's key and date strategies apply`() async throws {
        struct Since: Endpoint {
            var endpoint: Restful { Restful(.get, "since") }
            let startDate = Date(timeIntervalSince1970: 1_500)
            let userID = 3
            typealias ReturnPayloadType = EmptyPayload
        }
        let plain = JSONEncoder()
        plain.dateEncodingStrategy = .secondsSince1970
        #expect(try await query(of: Since(), encoder: plain) == "startDate=1500.0&userID=3")
        #expect(try await query(of: Since()) == "start_date=1970-01-01T00%3A25%3A00Z&user_id=3")

        let custom = JSONEncoder()
        custom.keyEncodingStrategy = .custom { path in AnyKey(path.last!.stringValue.uppercased()) }
        custom.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode("day-\(Int(date.timeIntervalSince1970 / 86_400))")
        }
        #expect(try await query(of: Since(), encoder: custom) == "STARTDATE=day-0&USERID=3")
    }

    @Test func `a property named endpoint of type Restful is never sent`() async throws {
        struct Stored: Endpoint {
            let endpoint = Restful(.get, "stored")
            let q = "x"
            typealias ReturnPayloadType = EmptyPayload
        }
        #expect(try await query(of: Stored()) == "q=x")
    }

    @Test func `no parameters means no query string`() async throws {
        struct Bare: Endpoint {
            var endpoint: Restful { Restful(.head, "bare") }
            typealias ReturnPayloadType = EmptyPayload
        }
        let transport = RecordingTransport()
        _ = try await Bare().call(on: .stub(transport))
        #expect(try transport.request.url?.absoluteString == "https://api.example.com/api/v1/bare")
        #expect(try transport.request.httpMethod == "HEAD")
    }

    @Test func `a fixed query in the path template is kept and extended`() async throws {
        struct Repos: Endpoint {
            var endpoint: Restful { Restful(.get, "search/repositories?sort=stars") }
            let q: String
            typealias ReturnPayloadType = EmptyPayload
        }
        let transport = RecordingTransport()
        _ = try await Repos(q: "swift").call(on: .stub(transport, pathPrefix: ""))
        #expect(try transport.request.url?.absoluteString == "https://api.example.com/search/repositories?sort=stars&q=swift")
    }

    @Test func `a form parser reads back exactly what was sent`() async throws {
        let values = ["+", "&", "=", "#", "%", " ", "%20", "a+b c", "é", "🧑‍🚀", "\u{0}", "?x=1&y=2", "\\", "€uro"]
        for value in values {
            let query = try #require(try await query(of: Search(text: value, tags: [value])))
            let items = try #require(URLComponents(string: "http://h/?\(query)")?.queryItems)
            #expect(items.first { $0.name == "text" }?.value == value)
            #expect(items.first { $0.name == "tags" }?.value == value)
        }
    }
}

struct AnyKey: CodingKey {
    let stringValue: String
    let intValue: Int? = nil
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
