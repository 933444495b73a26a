import EndpointKit
#if os(Linux)
import EndpointKitAsyncHTTPClient
#endif

/// The transport the demo's calls go over. On Linux, AsyncHTTPClient's (SwiftNIO): what a
/// Hummingbird or Vapor server uses, and where URLSession (swift-corelibs-foundation) is slower and
/// closes a stream's connection late. On Apple platforms, URLSession, EndpointKit's default.
let demoTransport: any HTTPTransport = {
    #if os(Linux)
    AsyncHTTPClientTransport.shared
    #else
    URLSessionTransport.shared
    #endif
}()
