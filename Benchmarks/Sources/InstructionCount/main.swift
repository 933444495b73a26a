import Contenders
import Dispatch
import EndpointKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Runs one contender's in-memory call N times, for counting instructions under valgrind's callgrind
// (run.sh runs it twice, with two values of N, and divides the difference by the extra calls).
//
//     InstructionCount <EndpointKit|snake|snake-all|explicit|explicit-all|openapi> <GET|POST> <calls>
//     BENCH_ORIGIN=http://127.0.0.1:PORT InstructionCount <raw|EndpointKit|openapi>-loopback <GET|POST> <calls>
//
// It starts a Task and waits on a semaphore instead of using top-level `await`: valgrind 3.19
// crashes on executables whose `main` awaits.

let arguments = CommandLine.arguments
guard arguments.count == 4, let calls = Int(arguments[3]) else {
    print("usage: InstructionCount <EndpointKit|snake|snake-all|explicit|explicit-all|openapi>[-loopback] <GET|POST> <calls>")
    exit(2)
}
let contender = arguments[1]
let isGET = arguments[2] == "GET"
let origin = Fixtures.origin.absoluteString
let remote = ProcessInfo.processInfo.environment["BENCH_ORIGIN"] ?? "http://127.0.0.1:8080"
let rawSender = SessionSender(session: URLSession(configuration: .ephemeral))
let remoteServer = APIServer(origin: URL(string: remote)!)
let remoteOpenAPI = OpenAPIContender.client(origin: URL(string: remote)!)
let done = DispatchSemaphore(value: 0)

Task.detached {
    do {
        for _ in 0..<calls {
            switch (contender, isGET) {
            case ("EndpointKit", true): _ = try await EndpointKitClient.listBranches(on: EndpointKitClient.inMemory)
            case ("EndpointKit", false): _ = try await EndpointKitClient.purchaseCheer(on: EndpointKitClient.inMemory)
            case ("snake", true): _ = try await HandWrittenClient.listBranches(origin: origin, sender: CannedSender())
            case ("snake", false): _ = try await HandWrittenClient.purchaseCheer(origin: origin, sender: CannedSender())
            case ("snake-all", true): _ = try await HandWrittenClient.listBranches(origin: origin, sender: CannedSender(), headers: .allAtOnce)
            case ("snake-all", false): _ = try await HandWrittenClient.purchaseCheer(origin: origin, sender: CannedSender(), headers: .allAtOnce)
            case ("explicit-all", true): _ = try await ExplicitKeysClient.listBranches(origin: origin, sender: CannedSender(), headers: .allAtOnce)
            case ("explicit-all", false): _ = try await ExplicitKeysClient.purchaseCheer(origin: origin, sender: CannedSender(), headers: .allAtOnce)
            case ("explicit", true): _ = try await ExplicitKeysClient.listBranches(origin: origin, sender: CannedSender())
            case ("explicit", false): _ = try await ExplicitKeysClient.purchaseCheer(origin: origin, sender: CannedSender())
            case ("openapi", true): _ = try await OpenAPIContender.listBranches(client: OpenAPIContender.inMemory)
            case ("openapi", false): _ = try await OpenAPIContender.purchaseCheer(client: OpenAPIContender.inMemory)
            // Over loopback to BENCH_ORIGIN: the client-side cost of a real exchange.
            case ("raw-loopback", true): _ = try await HandWrittenClient.listBranches(origin: remote, sender: rawSender)
            case ("raw-loopback", false): _ = try await HandWrittenClient.purchaseCheer(origin: remote, sender: rawSender)
            case ("EndpointKit-loopback", true): _ = try await EndpointKitClient.listBranches(on: remoteServer)
            case ("EndpointKit-loopback", false): _ = try await EndpointKitClient.purchaseCheer(on: remoteServer)
            case ("openapi-loopback", true): _ = try await OpenAPIContender.listBranches(client: remoteOpenAPI)
            case ("openapi-loopback", false): _ = try await OpenAPIContender.purchaseCheer(client: remoteOpenAPI)
            default: print("unknown contender \(contender)"); exit(2)
            }
        }
    } catch {
        print("call failed: \(error)")
        exit(1)
    }
    done.signal()
}
done.wait()
