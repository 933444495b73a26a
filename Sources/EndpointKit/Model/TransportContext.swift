import Dispatch
import Foundation

/// What a transport must honour for one attempt of a call, besides the request and its body.
///
/// EndpointKit makes one for every attempt, as the request leaves the middleware chain:
/// - the endpoint value and its name, for transports that answer by endpoint (a stub);
/// - the response size limit, the idle timeout of a streamed body, and whether a 2xx answer may
///   stream;
/// - the credential names, to leave out of a redirect to another origin;
/// - where to report upload progress.
///
/// The attempt's ``deadline`` is enforced by EndpointKit for every transport (the attempt is
/// cancelled when it passes); a transport reads it to set its own timeouts to match.
///
/// ```swift
/// struct Canned: HTTPTransport {
///     func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
///         let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: nil, headerFields: nil)!
///         return (.data(Data(#"{"name":"Ada"}"#.utf8)), response)
///     }
/// }
/// ```
public struct TransportContext: Sendable {
    /// The endpoint value being called, with its arguments: what a stub transport answers by.
    ///
    /// ```swift
    /// if let purchase = context.input as? PurchaseCheer { … }
    /// ```
    public let input: any Endpoint
    /// The operation's identifier, e.g. `"PurchaseCheer"`: the same as ``EndpointError/operationID``.
    public var operationID: String { EndpointError.operationID(of: type(of: input)) }
    /// When the attempt must have its answer's head, in the system's uptime clock (the clock of
    /// `DispatchTime.now()`); `nil` for no limit. EndpointKit cancels the attempt when it passes.
    public var deadline: DispatchTime?
    /// The most response body bytes (after decompression) to accept in an answer read whole;
    /// `nil` for no limit. A transport that does not count may return more: EndpointKit then
    /// fails the call. A 2xx answer returned as a stream (see ``streamsResponse``) is read piece
    /// by piece and has no such limit.
    public var maximumResponseSize: Int?
    /// The longest a streamed body may stay silent while its reader waits, in seconds.
    public var idleTimeout: TimeInterval?
    /// Whether a 2xx answer may be returned at its head as ``MessageBody/stream(_:)`` (a call of a
    /// streamed payload or a download). Any other answer may be returned as a stream too:
    /// EndpointKit then reads it whole, within ``maximumResponseSize``.
    public var streamsResponse: Bool
    /// The names of the headers and query parameters that carry credentials in this call.
    public var credentials: CredentialNames
    /// Told how much of the request body has been sent; `nil` when nobody asked. A transport that
    /// never calls it lets EndpointKit report the whole body as sent once the answer arrives.
    public var uploadProgress: (@Sendable (TransferProgress) -> Void)?
    /// Where ``deliver(_:)`` puts a payload for the call's decoding step, one per attempt; `nil`
    /// for a context made outside a call.
    package var delivery: Locked<(any Sendable)?>?

    /// A context for a call of `input`; EndpointKit makes these, tests of transports may too.
    ///
    /// ```swift
    /// let context = TransportContext(input: Me(), timeout: 5, maximumResponseSize: 1 << 20)
    /// ```
    public init(
        input: any Endpoint,
        timeout: TimeInterval? = nil,
        maximumResponseSize: Int? = nil,
        idleTimeout: TimeInterval? = nil,
        streamsResponse: Bool = false,
        credentials: CredentialNames = CredentialNames(),
        uploadProgress: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        self.input = input
        deadline = timeout.flatMap(Seconds.nanoseconds).map(Seconds.dispatchTime(after:))
        self.maximumResponseSize = maximumResponseSize
        self.idleTimeout = idleTimeout
        self.streamsResponse = streamsResponse
        self.credentials = credentials
        self.uploadProgress = uploadProgress
    }

    /// The uptime `seconds` from now; `nil` for no limit (not a positive number below a century).
    /// Hands the call its payload already decoded, as a test stub does: when the answer's status
    /// is 2xx and `payload` is of the endpoint's `ReturnPayloadType`, the call returns it as it is
    /// instead of decoding the body this transport returns. Middlewares see the answer's status and
    /// headers as for any other.
    ///
    /// ```swift
    /// context.deliver(Balance(balance: 200))
    /// return (.data(Data()), HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!)
    /// ```
    public func deliver(_ payload: some Sendable) {
        delivery?.value = payload
    }

    /// The seconds left before ``deadline``, zero once it has passed; `nil` for no deadline.
    ///
    /// ```swift
    /// let timeout = context.timeRemaining.map { min($0, 30) } ?? 30
    /// ```
    public var timeRemaining: TimeInterval? {
        guard let deadline else { return nil }
        let now = DispatchTime.now().uptimeNanoseconds
        return deadline.uptimeNanoseconds > now ? TimeInterval(deadline.uptimeNanoseconds - now) / 1e9 : 0
    }
}
