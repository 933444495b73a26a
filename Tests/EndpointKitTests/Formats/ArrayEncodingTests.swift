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

/// Lists in queries and form bodies: repeated keys, brackets or commas, per server and per property.
@Suite struct ArrayEncodingTests {
    struct Series: Endpoint {
        let endpoint = Restful(.get, "series")
        var match: [String] = ["up", "down"]
        var start: Int? = nil
        typealias ReturnPayloadType = EmptyPayload
    }

    func query(of endpoint: some Endpoint, arrays: ArrayEncoding = .repeatedKeys) async throws -> String? {
        let transport = RecordingTransport()
        var server = APIServer.stub(transport)
        server.arrayEncoding = arrays
        _ = try await endpoint.callWithMetadata(on: server)
        return try transport.request.url?.query
    }

    @Test(arguments: [
        (ArrayEncoding.repeatedKeys, "match=up&match=down"),
        (.brackets, "match%5B%5D=up&match%5B%5D=down"),
        (.commaSeparated, "match=up,down"),
    ])
    func `the server's array encoding shapes every list`(arrays: ArrayEncoding, expected: String) async throws {
        #expect(try await query(of: Series(), arrays: arrays) == expected)
    }

    @Test(arguments: [ArrayEncoding.repeatedKeys, .brackets, .commaSeparated])
    func `an empty list sends nothing in every style`(arrays: ArrayEncoding) async throws {
        #expect(try await query(of: Series(match: [], start: 1), arrays: arrays) == "start=1")
    }

    @Test func `a comma inside a comma-separated value is escaped, the separators are not`() async throws {
        #expect(try await query(of: Series(match: ["a,b", "c d", "é"]), arrays: .commaSeparated) == "match=a%2Cb,c%20d,%C3%A9")
    }

    @Test func `a comma-separated list of objects is refused`() async throws {
        struct Point: Encodable, Sendable { let x: Int }
        struct Points: Endpoint {
            let endpoint = Restful(.get, "points")
            @EncodedArray(.commaSeparated) var points: [Point] = [Point(x: 1)]
            typealias ReturnPayloadType = EmptyPayload
        }
        let error = await #expect(throws: EndpointError.self) { try await query(of: Points()) }
        #expect(error?.reason.contains("A comma-separated list holds plain values such as strings and numbers, not objects.") == true)
    }

    struct Search: Endpoint {
        let endpoint = Restful(.get, "search")
        @EncodedArray(.commaSeparated) var inName: [String] = []
        @EncodedArray(.brackets) var labels: [String]? = nil
        var tags: [String] = []
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a property's own encoding wins over the server's`() async throws {
        let endpoint = Search(inName: ["swift", "nio"], labels: ["bug"], tags: ["a", "b"])
        #expect(try await query(of: endpoint) == "in_name=swift,nio&labels%5B%5D=bug&tags=a&tags=b")
        #expect(try await query(of: endpoint, arrays: .commaSeparated) == "in_name=swift,nio&labels%5B%5D=bug&tags=a,b")
    }

    @Test func `nested lists and objects take brackets at each level`() async throws {
        struct Filter: Encodable, Sendable { let tags: [String] }
        struct Nested: Endpoint {
            let endpoint = Restful(.get, "nested")
            let filter = Filter(tags: ["a", "b"])
            typealias ReturnPayloadType = EmptyPayload
        }
        #expect(try await query(of: Nested(), arrays: .brackets) == "filter%5Btags%5D%5B%5D=a&filter%5Btags%5D%5B%5D=b")
        #expect(try await query(of: Nested(), arrays: .commaSeparated) == "filter%5Btags%5D=a,b")
    }

    struct CreateCheckout: Endpoint {
        let endpoint = Restful(.post, "checkout/sessions", body: .form)
        @EncodedArray(.brackets) var paymentMethodTypes: [String] = ["card", "sepa_debit"]
        let mode = "payment"
        @HeaderField("Idempotency-Key") var idempotencyKey: String? = "k-1"
        typealias ReturnPayloadType = EmptyPayload
    }

    @Test func `a form body uses the same encodings`() async throws {
        let transport = RecordingTransport()
        _ = try await CreateCheckout().call(on: .stub(transport))
        let request = try transport.request
        #expect(request.bodyText == "payment_method_types%5B%5D=card&payment_method_types%5B%5D=sepa_debit&mode=payment")
        #expect(request.value(forHTTPHeaderField: "Idempotency-Key") == "k-1")
        var commaServer = APIServer.stub(transport)
        commaServer.arrayEncoding = .commaSeparated
        struct Form: Endpoint {
            let endpoint = Restful(.post, "f", body: .form)
            let ids = [1, 2, 3]
            typealias ReturnPayloadType = EmptyPayload
        }
        _ = try await Form().call(on: commaServer)
        #expect(transport.requests.last?.bodyText == "ids=1,2,3")
    }

    @Test func `a JSON body keeps lists as JSON arrays`() async throws {
        struct Create: Endpoint {
            let endpoint = Restful(.post, "c")
            @EncodedArray(.commaSeparated) var tags: [String] = ["a", "b"]
            typealias ReturnPayloadType = EmptyPayload
        }
        let transport = RecordingTransport()
        _ = try await Create().call(on: .stub(transport))
        #expect(try transport.request.bodyText == #"{"tags":["a","b"]}"#)
    }

    @Test func `header lists stay comma-separated whatever the encoding`() async throws {
        struct Tagged: Endpoint {
            let endpoint = Restful(.get, "t")
            @HeaderField("X-Tags") var tags: [String]? = ["a", "b"]
            typealias ReturnPayloadType = EmptyPayload
        }
        let transport = RecordingTransport()
        var server = APIServer.stub(transport)
        server.arrayEncoding = .brackets
        _ = try await Tagged().call(on: server)
        #expect(try transport.request.value(forHTTPHeaderField: "X-Tags") == "a, b")
    }
}
