// libFuzzer's entry point for the generator: each input is read as an OpenAPI document (YAML or
// JSON) and, when it loads, generated with every option. Any input may be refused with a
// GenerationError; none may trap, hang or exhaust memory. Built only by Generator/Fuzz/run.sh,
// with -sanitize=fuzzer,address (libFuzzer provides main).
import EndpointKitGenerator
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let loaded = try? DocumentLoader.load(data) else { return 0 }
    _ = try? EndpointGenerator.generate(loaded, options: .init(fallsBack: true))
    _ = try? EndpointGenerator.generate(loaded, options: .init(documented: true, mcpServer: "fuzz-mcp", accessLevel: .public))
    return 0
}
