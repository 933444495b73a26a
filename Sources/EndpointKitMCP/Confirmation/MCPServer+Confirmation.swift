import Foundation

extension MCPServer {
    /// How a tool call that is not read-only (not `GET` or `HEAD`) is confirmed before anything is
    /// sent to the API.
    ///
    /// ```swift
    /// let mcp = MCPServer(name: "reiterate", version: "1.0", tools: tools,
    ///                     confirmation: .init(key: sharedKey, whenClientCannotAsk: .refuse))
    /// ```
    ///
    /// In this order:
    /// 1. Over HTTP, a caller no ``Authorization`` identified sends no write, unless
    ///    ``allowsAnonymousWrites``: on a server without authorization, anyone who reaches the
    ///    port would otherwise write with the app's credentials.
    /// 2. The app's own `EndpointTools` confirmation closure, when it gave one, decides.
    /// 3. A 2026-07-28 client that can show its user a form is answered with an
    ///    `InputRequiredResult`: an `elicitation/create` saying in plain words what will be sent
    ///    (the method, the API's host and path, the arguments) and a signed `requestState`. Its
    ///    retry is sent when the user accepted, and answered with an error result, nothing sent,
    ///    when the user declined or cancelled.
    /// 4. Any other client: ``whenClientCannotAsk``. By default the call is sent, as MCP clients of
    ///    the earlier revisions ask their user before every tool call themselves.
    ///
    /// The `requestState` is HMAC-SHA256-signed with ``key`` and names the caller (its principal,
    /// or the local user), the tool, a digest of the arguments and an expiry: state that was
    /// changed, has expired, comes with other arguments or from another caller is refused with
    /// nothing sent, and each is good for one call in this process.
    public struct Confirmation: Sendable {
        /// What happens to a write from a client that cannot ask its user.
        public enum Fallback: Sendable, Equatable {
            /// Send it: the client is trusted to ask its user (MCP clients ask before a tool call).
            case send
            /// Refuse it with an error result that says so; nothing is sent.
            case refuse
        }

        /// The HMAC-SHA256 key that signs `requestState`: give every instance behind one address
        /// the same key, so that a retry may reach another; a random key per process by default.
        public var key: Data
        /// How long the user has to answer, in seconds: 5 minutes by default.
        public var lifetime: TimeInterval
        /// What happens to a write from a client that cannot ask its user; ``Fallback/send`` by
        /// default.
        public var whenClientCannotAsk: Fallback
        /// Whether an HTTP caller that no ``Authorization`` identified may send writes; `false` by
        /// default.
        public var allowsAnonymousWrites: Bool

        /// A confirmation policy.
        ///
        /// ```swift
        /// let confirmation = MCPServer.Confirmation(lifetime: 120, whenClientCannotAsk: .refuse)
        /// ```
        ///
        /// - Parameters:
        ///   - key: The signing key, at least 32 bytes; `nil` (the default) for a random one.
        ///   - lifetime: How long the user has to answer, in seconds.
        ///   - whenClientCannotAsk: What happens to a write from a client that cannot ask its user.
        ///   - allowsAnonymousWrites: Whether an HTTP caller no authorization identified may write.
        public init(key: Data? = nil, lifetime: TimeInterval = 300, whenClientCannotAsk: Fallback = .send, allowsAnonymousWrites: Bool = false) {
            self.key = key ?? Data((0..<32).map { _ in UInt8.random(in: .min ... .max) })
            self.lifetime = max(1, lifetime)
            self.whenClientCannotAsk = whenClientCannotAsk
            self.allowsAnonymousWrites = allowsAnonymousWrites
        }
    }
}
