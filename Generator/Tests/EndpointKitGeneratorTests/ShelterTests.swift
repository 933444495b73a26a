#if os(macOS) || os(Linux)
import EndpointKit
import EndpointKitGenerator
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import ShelterAPI
import Testing

/// The shelter's FastAPI server publishes its own OpenAPI 3.1 document; the code generated from it
/// is the committed snapshot (the ShelterAPI target), and that code calls the server for real.
@Suite(.serialized) struct ShelterTests {
    let server: ShelterServer
    let api: APIServer

    init() throws {
        server = try ShelterServer()
        api = .shelter(origin: server.origin)
    }

    @Test func theServersOwnDocumentGeneratesTheSnapshot() throws {
        let files = try EndpointGenerator.generate(DocumentLoader.load(server.document())).files
        #expect(try Snapshots.differences(files, snapshot: "Shelter") == [])
    }

    @Test func aListPagedWithItsCursorToTheEnd() async throws {
        var pages = 0
        for try await _ in ListAnimals(limit: 2).pages(on: api) { pages += 1 }
        var names: [String] = []
        for try await animal in ListAnimals(limit: 2).items(on: api) { names.append(animal.name) }
        #expect(pages == 2)
        #expect(names == ["Tom", "Rex", "Luna", "Max"])
    }

    @Test func aCreateWithAUnionBodyThenADeleteThenATypedError() async throws {
        let created = try await CreateAnimal(name: "Kit", details: .cat(Cat(indoor: false)), tags: ["new"]).call(on: api)
        #expect(created.name == "Kit")
        #expect(created.tags == ["new"])
        guard case .cat(let cat) = created.details else { Issue.record("not a cat: \(created.details)"); return }
        #expect(cat.indoor == false)
        #expect(created.admittedAt == Date(timeIntervalSince1970: 1_769_947_200))  // 2026-02-01T12:00:00Z

        let dog = try await CreateAnimal(name: "Bo", details: .dog(Dog(goodBoy: false, weightKg: 12.5))).call(on: api)
        guard case .dog(let read) = dog.details else { Issue.record("not a dog: \(dog.details)"); return }
        #expect(read.goodBoy == false && read.weightKg == 12.5)

        _ = try await DeleteAnimal(animalId: created.id).call(on: api)
        let error = await #expect(throws: EndpointError.self) { try await GetAnimal(animalId: created.id).call(on: api) }
        #expect(error?.statusCode == 404)
        #expect(error?.errorPayload(as: Problem.self)?.detail == "no animal \(created.id.uuidString.lowercased())")
    }

    /// A server app passes its own client (AsyncHTTPClientTransport): the generated factory must
    /// send every call through the transport it is given.
    @Test func theGeneratedServerFactorySendsThroughTheTransportPassedIn() async throws {
        let counting = CountingTransport()
        let through = APIServer.shelter(origin: server.origin, transport: counting)
        var names: [String] = []
        for try await animal in ListAnimals(limit: 2).items(on: through) { names.append(animal.name) }
        #expect(names == ["Tom", "Rex", "Luna", "Max"])
        #expect(counting.paths == ["/animals", "/animals"])
    }

    @Test func aValidationErrorIsTheServersErrorType() async throws {
        let error = await #expect(throws: EndpointError.self) { try await ListAnimals(limit: 500).call(on: api) }
        #expect(error?.statusCode == 422)
        let detail = try #require(error?.errorPayload(as: HTTPValidationError.self)?.detail?.first)
        #expect(detail.loc.map { if case .string(let text) = $0 { text } else { "?" } } == ["query", "limit"])
        #expect(detail.type == "less_than_equal")
    }
}

/// Sends through URLSession and notes the path of every request it is handed.
final class CountingTransport: HTTPTransport, @unchecked Sendable {  // `lock` guards `sent`
    private let lock = NSLock()
    private var sent: [String] = []
    var paths: [String] { lock.withLock { sent } }

    func send(_ request: URLRequest, body: MessageBody?, context: TransportContext) async throws -> (MessageBody, HTTPURLResponse) {
        lock.withLock { sent.append(request.url?.path ?? "") }
        return try await URLSessionTransport.shared.send(request, body: body, context: context)
    }
}
#endif
