@testable import EndpointKit
import EndpointKitTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// What a transport of one's own receives and what EndpointKit does with what it returns: the
/// seam `HTTPTransport.send(_:body:context:)`.
@Suite struct TransportContextTests {
    struct Post: Endpoint {
        let endpoint = Restful(.post, "notes")
        let note: String
        typealias ReturnPayloadType = Data
        static var timeout: TimeInterval? { 7 }
        static var maximumResponseSize: Int? { 16 }
    }

    struct Events: Endpoint {
        let endpoint = Restful(.get, "events")
        typealias ReturnPayloadType = ByteStream
    }

    /// Keeps what it was given and answers with `answer`.
    final class Seeing: HTTPTransport {
        struct Seen: Sendable {
            var request: URLRequest
            var body: MessageBody?
            var context: TransportContext
        }

        let seen = Locked<[Seen]>([])
        let answer: @Sendable (TransportContext) async throws -> MessageBody

        init(_ answer: @escaping @Sendable (TransportContext) async throws -> MessageBody = { _ in .data(Data("{}".utf8)) }) {
            self.answer = answer
        }

        func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
            seen.withLock { $0.append(Seen(request: request, body: body, context: context)) }
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!
            return (try await answer(context), response)
        }
    }

    @Test(arguments: [false, true])
    func `the body comes beside the request, never in httpBody, and the context carries the call's facts`(withMiddleware: Bool) async throws {
        let transport = Seeing()
        var server = APIServer.stub(transport)
        server.maximumResponseSize = 1 << 20
        if withMiddleware { server.middlewares = [APIKeyAuthorization(header: "X-Key", value: "k"), APIKeyAuthorization(queryParameter: "sig", value: "s")] }
        let started = DispatchTime.now().uptimeNanoseconds
        _ = try await Post(note: "hi").call(on: server)
        let seen = try #require(transport.seen.value.first)
        #expect(seen.request.httpBody == nil)
        guard case .data(let bytes)? = seen.body else { Issue.record("\(String(describing: seen.body))"); return }
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"note":"hi"}"#)
        #expect(seen.context.operationID == "TransportContextTests.Post")
        #expect((seen.context.input as? Post)?.note == "hi")
        #expect(seen.context.maximumResponseSize == 16)
        #expect(seen.context.streamsResponse == false)
        #expect(seen.context.idleTimeout == nil)
        // The endpoint's timeout of 7 s, from about when the request left.
        let deadline = try #require(seen.context.deadline).uptimeNanoseconds
        #expect(deadline > started + 6_000_000_000 && deadline <= DispatchTime.now().uptimeNanoseconds + 7_000_000_000)
        #expect(seen.context.credentials == (withMiddleware ? CredentialNames(headers: ["x-key"], queryParameters: ["sig"]) : CredentialNames()))
    }

    @Test func `a stream returned to a call that does not stream is read whole, within the size limit`() async throws {
        let small = Seeing { _ in .stream(ByteStream(AsyncStream { $0.yield(Data("0123".utf8)); $0.yield(Data("4567".utf8)); $0.finish() })) }
        let read = try await Post(note: "a").call(on: .stub(small))
        #expect(read == Data("01234567".utf8), "read \(read.count) bytes: \(String(decoding: read, as: UTF8.self))")
        let large = Seeing { _ in .stream(ByteStream(Data(count: 17))) }
        let error = await #expect(throws: EndpointError.self) { try await Post(note: "a").call(on: .stub(large)) }
        #expect(error?.kind == .responseTooLarge)
        let whole = Seeing { _ in .data(Data(count: 17)) }
        let wholeError = await #expect(throws: EndpointError.self) { try await Post(note: "a").call(on: .stub(whole)) }
        #expect(wholeError?.kind == .responseTooLarge)
    }

    @Test func `a streaming call is told so, and its 2xx stream reaches the caller as it is`() async throws {
        let transport = Seeing { context in
            #expect(context.streamsResponse)
            #expect(context.idleTimeout == Events.streaming.idleTimeout)
            return .stream(ByteStream(AsyncStream { $0.yield(Data("a".utf8)); $0.yield(Data("b".utf8)); $0.finish() }))
        }
        var chunks: [String] = []
        for try await chunk in try await Events().call(on: .stub(transport)) { chunks.append(String(decoding: chunk, as: UTF8.self)) }
        #expect(chunks.joined() == "ab")
        #expect(transport.seen.value.count == 1)
    }

    @Test func `a transport that never answers is cancelled at the deadline and the call times out`() async throws {
        let transport = Seeing { _ in
            try await Task.sleep(nanoseconds: 60_000_000_000)  // cancelled long before
            return .data(Data())
        }
        var server = APIServer.stub(transport)
        server.timeout = 0.2
        let clock = ContinuousClock()
        let started = clock.now
        let error = await #expect(throws: EndpointError.self) { try await Me().call(on: server) }
        #expect((error?.underlyingError as? URLError)?.code == .timedOut)
        #expect(clock.now - started < .seconds(30))  // a hang would take the full minute
    }

    @Test func `a transport that reports no upload progress gets it reported whole once answered`() async throws {
        let reports = Locked<[TransferProgress]>([])
        _ = try await Post(note: "hello").call(on: .stub(Seeing())) { progress in reports.withLock { $0.append(progress) } }
        #expect(reports.value == [TransferProgress(completed: 16, expected: 16)])
        let reporting = Seeing { context in
            context.uploadProgress?(TransferProgress(completed: 3, expected: 16))
            return .data(Data("{}".utf8))
        }
        let own = Locked<[TransferProgress]>([])
        _ = try await Post(note: "hello").call(on: .stub(reporting)) { progress in own.withLock { $0.append(progress) } }
        #expect(own.value == [TransferProgress(completed: 3, expected: 16)])
    }

    struct Me: Endpoint {
        let endpoint = Restful(.get, "me")
        typealias ReturnPayloadType = Data
    }
}
