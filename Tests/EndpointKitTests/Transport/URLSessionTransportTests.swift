@testable import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite struct URLSessionTransportTests {
    /// Apple's URLSession applies `timeoutIntervalForResource` to the whole task, which would cut
    /// a Server-Sent Events stream or a download after that many seconds: EndpointKit keeps the
    /// deadline and enforces it itself, for the head of a streamed answer only.
    @Test func `the resource timeout is EndpointKit's to enforce, never the session's`() {
        let configuration = URLSessionTransport.makeConfiguration()
        configuration.timeoutIntervalForResource = 5
        let transport = URLSessionTransport(configuration: configuration)
        #expect(transport.sessionResourceTimeout == 7 * 24 * 3600)
        #expect(configuration.timeoutIntervalForResource == 5)  // the caller's copy is left alone
        let waiting = URLSessionTransport(configuration: URLSessionTransport.makeConfiguration(waitingForConnectivityUpTo: 300))
        #expect(waiting.sessionResourceTimeout == 7 * 24 * 3600)
    }
}

/// Files EndpointKit creates: a protection class that cannot be set (Mac Catalyst, an iPad app on a
/// Mac) never fails the call.
@Suite struct FileProtectionTests {
    @Test func `a file whose protection class is refused is created without one`() {
        let attempts = Locked<[Bool]>([])
        let created = FileProtection.createFile(atPath: "/tmp/x", attributes: [.protectionKey: "refused"]) { _, attributes in
            attempts.withLock { $0.append(attributes != nil) }
            return attributes == nil  // as a Mac's file system refuses the class
        }
        #expect(created)
        #expect(attempts.value == [true, false])
    }

    @Test func `a file that cannot be created at all fails once without attributes, twice with`() {
        let attempts = Locked(0)
        #expect(!FileProtection.createFile(atPath: "/tmp/x", attributes: nil) { _, _ in attempts.withLock { $0 += 1 }; return false })
        #expect(attempts.value == 1)
        #expect(!FileProtection.createFile(atPath: "/tmp/x", attributes: [.protectionKey: "x"]) { _, _ in attempts.withLock { $0 += 1 }; return false })
        #expect(attempts.value == 3)
    }

    @Test func `no protection class is set where there is none`() {
        #if os(macOS) || os(Linux) || targetEnvironment(macCatalyst)
        #expect(!FileProtection.applies)
        #expect(FileProtection.attributes == nil)
        #expect(FileProtection.writingOptions(.atomic) == .atomic)
        #endif
    }
}
