// UIKit's background tasks exist on iOS, iPadOS, tvOS, visionOS and Mac Catalyst; watchOS has
// UIKit-free background rules, and macOS and Linux keep running an app that is not in front. So
// this middleware exists only where UIKit and `UIApplication` do. Nobody here can compile for those
// platforms: it is unverified (see the Apple platform notes article).
#if canImport(UIKit) && !os(watchOS)
import Foundation
import UIKit

/// Lets a call started while the app is in the foreground finish after the app moves to the
/// background: each request runs inside a UIKit background task (`beginBackgroundTask`), ended
/// when its answer is over: at once for a whole answer, and for a streamed one (Server-Sent Events,
/// a download) when its body has been read to the end, has failed, or has been dropped.
///
/// ```swift
/// server.middlewares = [BackgroundExecution(), HTTPBearerAuthorization(token: token)]
/// ```
///
/// The system grants a few seconds to a few minutes. When they run out, the background task is
/// ended (as UIKit requires) and the call goes on only if the app is still running. For transfers
/// that must survive the app's suspension, use a background `URLSessionConfiguration` instead.
@available(iOSApplicationExtension, unavailable)
@available(tvOSApplicationExtension, unavailable)
@available(macCatalystApplicationExtension, unavailable)
public struct BackgroundExecution: EndpointMiddleware {
    /// The name the background task has in the debugger and in logs.
    public let name: String

    /// A middleware whose background tasks are named `name`.
    ///
    /// ```swift
    /// let background = BackgroundExecution(name: "Upload photo")
    /// ```
    public init(name: String = "EndpointKit call") {
        self.name = name
    }

    /// Sends the request inside a background task.
    public func intercept(
        _ request: URLRequest, body: MessageBody?, context: MiddlewareContext, next: Next
    ) async throws -> (MessageBody, HTTPURLResponse) {
        let assertion = await Assertion.begin(named: name)
        let end: @Sendable () -> Void = { Task { @MainActor in assertion.end() } }
        do {
            let (answer, response) = try await next(request, body)
            // The head of a streamed answer comes back here long before its body ends.
            return (answer.whenFinished(end), response)
        } catch {
            end()
            throw error
        }
    }
}

/// One UIKit background task, ended once.
@available(iOSApplicationExtension, unavailable)
@available(tvOSApplicationExtension, unavailable)
@available(macCatalystApplicationExtension, unavailable)
@MainActor
private final class Assertion {
    private var identifier = UIBackgroundTaskIdentifier.invalid

    static func begin(named name: String) -> Assertion {
        let assertion = Assertion()
        assertion.identifier = UIApplication.shared.beginBackgroundTask(withName: name) { [weak assertion] in
            assertion?.end()  // time is up: UIKit ends the app unless its background tasks end
        }
        return assertion
    }

    func end() {
        guard identifier != .invalid else { return }
        UIApplication.shared.endBackgroundTask(identifier)
        identifier = .invalid
    }
}
#endif
