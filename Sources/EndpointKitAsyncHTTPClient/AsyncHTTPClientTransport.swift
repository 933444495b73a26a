#if AsyncHTTPClient && !os(watchOS)  // the trait that brings AsyncHTTPClient; never on a watch (TN3135)
import AsyncHTTPClient
import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import NIOPosix

/// An EndpointKit transport over swift-server's AsyncHTTPClient (SwiftNIO): what server-side Swift
/// uses, and on Linux faster than URLSession, with cancellation that closes the connection at once.
///
/// ```swift
/// let server = APIServer(origin: URL(string: "https://api.example.com")!, transport: AsyncHTTPClientTransport.shared)
/// ```
///
/// It honours everything a call's ``TransportContext`` says, with the rules of
/// `URLSessionTransport`:
/// - redirects follow ``redirectPolicy`` (`http` and `https` only, never down to `http`,
///   credentials left behind on another origin, at most `maximumRedirects`); its client's own
///   redirect following is off;
/// - the body is counted as it arrives (after decompression) and the call fails past the size
///   limit;
/// - a streamed 2xx body reaches the caller as it arrives, the connection reading only as fast as
///   the caller does; a `break`, a cancel or the idle timeout closes the connection;
/// - a body on disk is uploaded from its file, in chunks, and upload progress is reported;
/// - an answer of 300 or more that arrives before the upload has ended is the answer (a 307 or
///   308 then sends the body again), however the server timed it.
///
/// Not on watchOS, where SwiftNIO's BSD sockets are not allowed for general networking (Apple's
/// TN3135): there it is an unavailable stub, and a watch app uses `URLSessionTransport`.
///
/// What it does not do that URLSession does: keep cookies, read proxies from the environment, or
/// decode content encodings other than gzip and deflate.
///
/// A transport made with ``init(configuration:eventLoopGroup:redirectPolicy:)`` owns its client:
/// call ``shutdown()`` once it is no longer used, to know when its connections are closed. One
/// dropped without it shuts its client down on its way out. ``shared`` lives as long as the process.
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// One transport for the whole process, on NIO's shared event loops; never shut down.
    ///
    /// ```swift
    /// api.transport = AsyncHTTPClientTransport.shared
    /// ```
    public static let shared = AsyncHTTPClientTransport()

    /// The rules redirects are followed by.
    public let redirectPolicy: RedirectPolicy

    private let client: HTTPClient
    private let eventLoopGroup: any EventLoopGroup

    /// A transport with a client of its own.
    ///
    /// ```swift
    /// var configuration = HTTPClient.Configuration()
    /// configuration.timeout.connect = .seconds(5)
    /// let transport = AsyncHTTPClientTransport(configuration: configuration)
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: The client's configuration. By default it decodes gzip and deflate
    ///     bodies, allows 32 connections per host as `URLSessionTransport` does, and a connection that cannot be made fails the call at once, as with URLSession
    ///     (AsyncHTTPClient's own default retries it until the connect timeout, 10 s). Its redirect
    ///     following is turned off: the transport follows redirects by `redirectPolicy`.
    ///   - eventLoopGroup: Where the client runs; NIO's shared group by default.
    ///   - redirectPolicy: The rules redirects are followed by.
    public init(
        configuration: HTTPClient.Configuration? = nil,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        redirectPolicy: RedirectPolicy = RedirectPolicy()
    ) {
        var configuration = configuration ?? Self.defaultConfiguration
        configuration.redirectConfiguration = .disallow
        self.eventLoopGroup = eventLoopGroup
        client = HTTPClient(eventLoopGroupProvider: .shared(eventLoopGroup), configuration: configuration)
        self.redirectPolicy = redirectPolicy
    }

    private static var defaultConfiguration: HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration(decompression: .enabled(limit: .none))
        configuration.connectionPool.retryConnectionEstablishment = false
        // As many connections per host as URLSessionTransport allows (AsyncHTTPClient's default is 8).
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = URLSessionTransport.defaultMaximumConnectionsPerHost
        return configuration
    }

    /// Closes the client's connections; calls after it fail.
    ///
    /// ```swift
    /// try await transport.shutdown()
    /// ```
    public func shutdown() async throws {
        try await client.shutdown()
    }

    // A transport dropped without `shutdown()` shuts its client down, which keeps itself alive
    // until its connections are closed. AsyncHTTPClient's client stops a debug build when it is
    // released still running ("Client not shut down before the deinit"); a transport an app or a
    // test makes and lets go must not. After `shutdown()`, this one fails quietly (already shut).
    deinit {
        _ = client.shutdown()
    }

    /// Sends `request` with `body`, following redirects by ``redirectPolicy``.
    ///
    /// ```swift
    /// let (body, response) = try await transport.send(request, body: .data(json), context: context)
    /// ```
    ///
    /// - Throws: `CancellationError` when the calling task is cancelled; a `URLError` for a
    ///   failed exchange (`.timedOut`, `.cannotConnectToHost`, `.networkConnectionLost`,
    ///   `.httpTooManyRedirects`, …) with AsyncHTTPClient's error under `NSUnderlyingErrorKey`; a
    ///   `TransportRefusal` for a redirect not followed or a body past the size limit.
    public func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
        var request = request
        var upload = try await Upload(body)
        var redirects = 0
        while true {
            let (answer, response) = try await exchange(request, upload: upload, context: context)
            guard let next = try redirectPolicy.redirection(
                after: response, to: request, redirectsSoFar: redirects, credentials: context.credentials) else {
                return (answer, response)
            }
            request = next.request
            if !next.keepsBody { upload = .none }
            redirects += 1
        }
    }

    /// One request and its answer, with no redirect followed.
    private func exchange(_ request: URLRequest, upload: Upload, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
        try Task.checkCancellation()  // a cancelled call sends nothing
        guard let url = request.url else { throw URLError(.badURL) }
        var headers = HTTPHeaders()
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers.add(name: name, value: value) }
        let outgoing = try HTTPClient.Request(
            url: url.absoluteString, method: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
            headers: headers, body: upload.body(on: eventLoopGroup))
        // AsyncHTTPClient's deadline bounds the whole exchange, body included. A streamed answer
        // may flow for longer than the call's timeout (a chat, a download, a reader that pauses):
        // its deadline is for the head only, which EndpointKit enforces itself by cancelling.
        let deadline = context.streamsResponse ? nil : context.deadline.map { NIODeadline.uptimeNanoseconds($0.uptimeNanoseconds) }
        let delegate = ExchangeDelegate(url: url, context: context, uploadSize: upload.size)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.start(continuation) {
                    client.execute(request: outgoing, delegate: delegate, deadline: deadline)
                }
            }
        } onCancel: {
            delegate.cancel()
        }
    }
}

extension AsyncHTTPClientTransport {
    /// A request body, as AsyncHTTPClient sends it: sent again after a 307 or 308.
    enum Upload: Sendable {
        case none
        case bytes(Data)
        case file(URL, size: Int64)

        init(_ body: MessageBody?) async throws {
            switch body {
            case nil:
                self = .none
            case .data(let data)?:
                self = .bytes(data)
            case .stream(let stream)?:
                if let url = stream.fileURL {
                    let size = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
                    self = .file(url, size: size)
                } else {
                    // A stream a middleware made is read once: kept in memory, for a 307 or 308.
                    self = .bytes(try await stream.collect(upTo: .max))
                }
            }
        }

        /// The size of the parts a body is written in: 64 KiB.
        static let part = 1 << 16

        var size: Int64? {
            switch self {
            case .none: nil
            case .bytes(let data): Int64(data.count)
            case .file(_, let size): size
            }
        }

        func body(on group: any EventLoopGroup) -> HTTPClient.Body? {
            switch self {
            case .none:
                return nil
            case .bytes(let data) where data.count <= Self.part:
                return .bytes(data)
            case .bytes(let data):
                // In parts, each written when the connection takes it: upload progress moves as
                // bytes leave, rather than at 0 and then at the end.
                return .stream(contentLength: Int64(data.count)) { writer in
                    let promise = group.any().makePromise(of: Void.self)
                    promise.completeWithTask {
                        var start = data.startIndex
                        while start < data.endIndex {
                            let end = data.index(start, offsetBy: Self.part, limitedBy: data.endIndex) ?? data.endIndex
                            try await writer.write(.byteBuffer(ByteBuffer(bytes: data[start..<end]))).get()
                            start = end
                        }
                    }
                    return promise.futureResult
                }
            case .file(let url, let size):
                // Read in chunks, each written before the next is read: the connection's pace.
                return .stream(contentLength: size) { writer in
                    let promise = group.any().makePromise(of: Void.self)
                    promise.completeWithTask {
                        let handle = try FileHandle(forReadingFrom: url)
                        defer { try? handle.close() }
                        while let chunk = try handle.read(upToCount: Self.part), !chunk.isEmpty {
                            try await writer.write(.byteBuffer(ByteBuffer(bytes: chunk))).get()
                        }
                    }
                    return promise.futureResult
                }
            }
        }
    }
}
#else
import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Built without EndpointKit's `AsyncHTTPClient` package trait, or for watchOS: a use of the
/// transport says why, rather than "cannot find type". It has the everyday members, so that the
/// compiler gets as far as saying so; none of them can be called.
///
/// On watchOS, SwiftNIO's BSD sockets are not allowed for general networking (Apple's TN3135), so
/// every call would fail at run time: a watch app uses `URLSessionTransport`, the default.
///
/// ```swift
/// .package(url: "https://github.com/<owner>/EndpointKit", branch: "main", traits: ["AsyncHTTPClient"])
/// ```
@available(*, unavailable, message: "turn on EndpointKit's \"AsyncHTTPClient\" package trait: .package(url: …, branch: \"main\", traits: [\"AsyncHTTPClient\"]); on watchOS it is never available (SwiftNIO's BSD sockets are not allowed there, TN3135): use URLSessionTransport")
public final class AsyncHTTPClientTransport: HTTPTransport {
    /// Unavailable without the trait.
    public static var shared: AsyncHTTPClientTransport { AsyncHTTPClientTransport() }

    /// Unavailable without the trait.
    public init() {}

    /// Unavailable without the trait.
    public func shutdown() async throws {}

    /// Unavailable without the trait.
    public func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
        throw URLError(.unsupportedURL)
    }
}
#endif
