import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `RedirectPolicy`, the redirect rules a transport of one's own follows.
@Suite struct PublicRedirectPolicyTests {
    let policy = RedirectPolicy(maximumRedirects: 2)

    func request(_ method: String = "POST", url: String = "https://a.test/x?sig=s&keep=1") -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        request.setValue("k", forHTTPHeaderField: "X-Key")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("idem", forHTTPHeaderField: "Idempotency-Key")
        return request
    }

    func response(_ status: Int, to location: String?, from url: String = "https://a.test/x") -> HTTPURLResponse {
        HTTPURLResponse(url: URL(string: url)!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: location.map { ["Location": $0] } ?? [:])!
    }

    let credentials = CredentialNames(headers: ["X-Key"], queryParameters: ["sig"])

    @Test func `307 and 308 keep the method and body; 303, and 301 or 302 of a POST, become a GET without one`() throws {
        for status in [307, 308] {
            let next = try #require(try policy.redirection(after: response(status, to: "/y"), to: request(), redirectsSoFar: 0, credentials: credentials))
            #expect(next.keepsBody && next.request.httpMethod == "POST")
            #expect(next.request.url?.absoluteString == "https://a.test/y")
            #expect(next.request.value(forHTTPHeaderField: "Authorization") == "Bearer t")  // same origin
        }
        for status in [301, 302, 303] {
            let next = try #require(try policy.redirection(after: response(status, to: "/y"), to: request(), redirectsSoFar: 0, credentials: credentials))
            #expect(!next.keepsBody && next.request.httpMethod == "GET")
            #expect(next.request.value(forHTTPHeaderField: "Content-Type") == nil)
        }
        let put = try #require(try policy.redirection(after: response(302, to: "/y"), to: request("PUT"), redirectsSoFar: 0, credentials: credentials))
        #expect(put.keepsBody && put.request.httpMethod == "PUT")
    }

    @Test func `another origin gets no credentials, headers or query, and everything else`() throws {
        let next = try #require(try policy.redirection(
            after: response(307, to: "https://b.test/y?sig=s&keep=1"), to: request(), redirectsSoFar: 0, credentials: credentials))
        #expect(next.request.allHTTPHeaderFields == ["Content-Type": "application/json", "Idempotency-Key": "idem"])
        #expect(next.request.url?.absoluteString == "https://b.test/y?keep=1")
    }

    @Test func `a downgrade, another scheme and too many redirects are refused; no Location is delivered`() throws {
        for (location, reason) in [("http://a.test/y", "it would downgrade https to http"), ("file:///etc/passwd", "only http and https redirects are followed")] {
            #expect {
                try policy.redirection(after: response(302, to: location), to: request(), redirectsSoFar: 0, credentials: credentials)
            } throws: { error in
                guard case TransportRefusal.redirect(let refused, let why, let answer)? = error as? TransportRefusal else { return false }
                return refused == location && why == reason && answer.statusCode == 302
            }
        }
        let tooMany = #expect(throws: URLError.self) {
            try policy.redirection(after: response(302, to: "/y"), to: request(), redirectsSoFar: 2, credentials: credentials)
        }
        #expect(tooMany?.code == .httpTooManyRedirects)
        #expect(try policy.redirection(after: response(302, to: nil), to: request(), redirectsSoFar: 0, credentials: credentials) == nil)
        #expect(try policy.redirection(after: response(304, to: "/y"), to: request(), redirectsSoFar: 0, credentials: credentials) == nil)
    }
}
