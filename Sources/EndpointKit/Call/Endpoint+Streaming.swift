import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Endpoint {
    /// A call whose payload streams: the payload reads the body as it arrives.
    func performStreaming<Payload: StreamedPayload>(
        _ type: Payload.Type, prepared: PreparedRequest, on server: APIServer, options: CallOptions
    ) async throws -> EndpointResponse<ReturnPayloadType> {
        var prepared = prepared
        if let accept = Payload.acceptedTypes, !Self.headers.keys.contains(where: { HeaderRules.sameName($0, "Accept") }) {
            prepared.request.setValue(accept, forHTTPHeaderField: "Accept")
        }
        if let idle = Self.streaming.idleTimeout, idle > 0 {
            prepared.request.timeoutInterval = idle  // URLSession's own idle timeout agrees
        }
        let (body, response) = try await openStream(prepared, on: server, options: options)
        let context = StreamContext(
            body: body, response: response, request: prepared.request, coders: server.coders,
            errorPayloadType: Self.errorPayloadType ?? server.errorPayloadType, options: Self.streaming,
            maximumElementSize: max(Self.maximumResponseSize ?? server.maximumResponseSize, 1),
            endpointType: Self.self, route: prepared.route,
            reopen: { [prepared] lastEventID in
                var again = prepared
                if !lastEventID.isEmpty, HeaderRules.problem(name: "Last-Event-ID", value: lastEventID) == nil {
                    again.request.setValue(lastEventID, forHTTPHeaderField: "Last-Event-ID")
                }
                let (body, response) = try await openStream(again, on: server)
                return response.statusCode == 204 ? nil : body
            })
        guard let payload = Payload.reading(context) as? ReturnPayloadType else {
            throw EndpointError(
                kind: .invalidRequest, route: EndpointError.route(of: prepared.request),
                reason: "\(Payload.self) is not the endpoint's payload type")  // cannot happen: the caller checked
        }
        return EndpointResponse(payload: payload, httpResponse: response, request: prepared.request)
    }

    /// Sends `prepared` through the middlewares and returns a 2xx answer at its head, its body
    /// streaming; another status throws the usual ``EndpointError`` (body and error payload
    /// included) before anything is streamed.
    func openStream(_ prepared: PreparedRequest, on server: APIServer, options: CallOptions = CallOptions()) async throws -> (ByteStream, HTTPURLResponse) {
        let request = prepared.request
        let answer: MessageBody
        let response: HTTPURLResponse
        let data: Data
        do {
            (answer, response) = try await MiddlewareChain.send(prepared, for: self, on: server, streaming: true, options: options)
            // A middleware may answer with bytes (from a cache, say); an error status is read whole.
            switch answer {
            case .stream(let stream) where (200..<300).contains(response.statusCode):
                return (Self.naming(stream, request: request, response: response, route: prepared.route), response)
            case .stream(let stream):
                data = try await stream.collect(upTo: Self.responseLimit(on: server))
            case .data(let bytes):
                data = bytes
            }
        } catch {
            throw Self.transportFailure(error, request: request)
        }
        guard (200..<300).contains(response.statusCode) else {
            _ = try ResponseDecoder.decode(
                EmptyPayload.self, from: data, response: response, request: request, decoder: server.decoder,
                errorPayloadType: Self.errorPayloadType ?? server.errorPayloadType)
            throw EndpointError(
                kind: .unacceptableStatus, route: EndpointError.route(of: request),
                reason: "the server answered \(EndpointError.statusText(response.statusCode))", request: request,
                response: response, responseBody: data)  // not reached: decode throws for any status but 2xx
        }
        return (Self.naming(ByteStream(data), request: request, response: response, route: prepared.route), response)
    }

    /// `stream`, its failures reported as this call's.
    private static func naming(_ stream: ByteStream, request: URLRequest, response: HTTPURLResponse, route: String) -> ByteStream {
        stream.failing(with: { error in
            let failure = streamFailure(error, request: request, response: response)
            return (failure as? EndpointError)?.naming(Self.self, route: route) ?? failure
        })
    }

    /// The error a stream ends with, naming the call.
    static func streamFailure(_ error: any Error, request: URLRequest, response: HTTPURLResponse) -> any Error {
        if case .streamAlreadyRead? = error as? TransportRefusal {
            return EndpointError(
                kind: .streamError, route: EndpointError.route(of: request),
                reason: "the streamed answer was read a second time; a stream is read once, by one loop, so keep what the first one read",
                request: request, response: response, underlyingError: error)
        }
        guard let urlError = error as? URLError else {
            return transportFailure(error, request: request)
        }
        if urlError.code == .dataLengthExceedsMaximum {
            return EndpointError(
                kind: .responseTooLarge, route: EndpointError.route(of: request),
                reason: "the stream was stopped because the loop reading it fell more than \(Exchange.overflowLimit >> 30) GiB behind the server",
                request: request, response: response, underlyingError: urlError)
        }
        return EndpointError(
            kind: .transportFailed, route: EndpointError.route(of: request),
            reason: "the streamed answer broke off: \(urlError.explanation)", request: request, response: response,
            underlyingError: urlError)
    }
}
