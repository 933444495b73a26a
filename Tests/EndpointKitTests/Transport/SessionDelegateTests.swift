@testable import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The redirect count as `URLSessionTransport`'s session delegate keeps it, fed a sequence of
/// redirect callbacks by hand: Apple's URLSession upgrades `http` to `https` for a host on its
/// HSTS list with a 307 it makes up and hands to the delegate, which no server here can send.
@Suite struct RedirectCountingTests {
    struct Ping: Endpoint {
        let endpoint = Restful(.get, "ping")
        typealias ReturnPayloadType = EmptyPayload
    }

    /// What the delegate answers to each of `hops` (a redirect from `from` to `to`) of one call that
    /// may follow `maximum` redirects: the URL it lets URLSession follow, or `nil` where it stops.
    func answers(to hops: [(from: String, to: String)], maximum: Int) async -> [String?] {
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        let delegate = SessionDelegate()
        let first = URLRequest(url: URL(string: hops[0].from)!)
        let task = session.dataTask(with: first)  // never resumed: nothing is sent
        let exchange = Exchange(request: first, uploadsFile: false, context: TransportContext(input: Ping()), maximumRedirects: maximum)
        delegate.register(exchange, for: task)
        var answers: [String?] = []
        for hop in hops {
            let response = HTTPURLResponse(
                url: URL(string: hop.from)!, statusCode: 307, httpVersion: "HTTP/1.1", headerFields: ["Location": hop.to])!
            let next = await withCheckedContinuation { continuation in
                delegate.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: URLRequest(url: URL(string: hop.to)!)) {
                    continuation.resume(returning: $0?.url?.absoluteString)
                }
            }
            answers.append(next)
        }
        return answers
    }

    @Test func `an HSTS upgrade of the same URL is not counted, so maximumRedirects 0 still reaches the server`() async {
        #expect(await answers(to: [("http://api.test/v1/me?x=1", "https://api.test/v1/me?x=1")], maximum: 0) == ["https://api.test/v1/me?x=1"])
        #expect(await answers(to: [("http://api.test:80/me", "https://api.test/me")], maximum: 0) == ["https://api.test/me"])
        #expect(await answers(to: [("http://api.test:8080/me", "https://api.test:8080/me")], maximum: 0) == ["https://api.test:8080/me"])
    }

    @Test func `an upgrade followed by a real redirect counts the real one only`() async {
        let hops = [("http://api.test/a", "https://api.test/a"), ("https://api.test/a", "https://api.test/b")]
        #expect(await answers(to: hops, maximum: 1) == ["https://api.test/a", "https://api.test/b"])
        #expect(await answers(to: hops, maximum: 0) == ["https://api.test/a", nil])
    }

    @Test(arguments: [
        ("http://api.test/a", "https://api.test/b"),  // another path
        ("http://api.test/a", "https://api.test/a?page=2"),  // another query
        ("http://api.test/a", "https://other.test/a"),  // another host
        ("http://api.test/a", "https://api.test:8443/a"),  // another port
        ("https://api.test/a", "https://api.test/a"),  // no upgrade: a loop
        ("http://api.test/a", "http://api.test/b"),
    ])
    func `any other redirect counts, and maximumRedirects 0 stops it`(from: String, to: String) async {
        #expect(await answers(to: [(from, to)], maximum: 0) == [nil])
    }
}
