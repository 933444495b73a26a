import Contenders
import Dispatch
import EndpointKit
import Foundation

// Runs one contender's in-memory call N times, for counting instructions under valgrind's callgrind
// (run.sh runs it twice, with two values of N, and divides the difference by the extra calls).
//
//     InstructionCount <EndpointKit|snake|explicit|openapi> <GET|POST> <calls>
//
// It starts a Task and waits on a semaphore instead of using top-level `await`: valgrind 3.19
// crashes on executables whose `main` awaits.

let arguments = CommandLine.arguments
guard arguments.count == 4, let calls = Int(arguments[3]) else {
    print("usage: InstructionCount <EndpointKit|snake|explicit|openapi> <GET|POST> <calls>")
    exit(2)
}
let contender = arguments[1]
let isGET = arguments[2] == "GET"
let origin = Fixtures.origin.absoluteString
let done = DispatchSemaphore(value: 0)

Task.detached {
    do {
        for _ in 0..<calls {
            switch (contender, isGET) {
            case ("EndpointKit", true): _ = try await EndpointKitClient.listBranches(on: EndpointKitClient.inMemory)
            case ("EndpointKit", false): _ = try await EndpointKitClient.purchaseCheer(on: EndpointKitClient.inMemory)
            case ("snake", true): _ = try await HandWrittenClient.listBranches(origin: origin, sender: CannedSender())
            case ("snake", false): _ = try await HandWrittenClient.purchaseCheer(origin: origin, sender: CannedSender())
            case ("explicit", true): _ = try await ExplicitKeysClient.listBranches(origin: origin, sender: CannedSender())
            case ("explicit", false): _ = try await ExplicitKeysClient.purchaseCheer(origin: origin, sender: CannedSender())
            case ("openapi", true): _ = try await OpenAPIContender.listBranches(client: OpenAPIContender.inMemory)
            case ("openapi", false): _ = try await OpenAPIContender.purchaseCheer(client: OpenAPIContender.inMemory)
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
