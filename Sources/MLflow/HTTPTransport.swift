import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Synchronous HTTP requests through Foundation's `URLSession` (libcurl on Linux).
struct HTTPTransport: Sendable {
    /// The answer to a request.
    struct Response: Sendable {
        var status: Int
        var body: Data
    }

    /// Seconds before a request without an answer fails.
    var timeout: TimeInterval = 60

    /// Sends `method url` with `body` and waits for the answer.
    /// - Throws: ``MLflowError/unreachable(url:reason:)`` if no HTTP answer arrives.
    func send(_ method: String, _ url: URL, body: Data?, contentType: String?) throws(MLflowError) -> Response {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        let result = ResultBox()
        let done = DispatchSemaphore(value: 0)
        // A session of its own: on Linux the request's own timeout is not applied, the session's is.
        let configuration = URLSessionConfiguration.default
        configuration.timeoutIntervalForRequest = timeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let task = session.dataTask(with: request) { data, response, error in
            result.set(data: data, response: response as? HTTPURLResponse, error: error)
            done.signal()
        }
        task.resume()
        done.wait()
        let (data, response, error) = result.get()
        guard let response else {
            throw .unreachable(url: url.absoluteString, reason: error.map { Self.reason(of: $0, timeout: timeout) } ?? "no HTTP response")
        }
        return Response(status: response.statusCode, body: data ?? Data())
    }

    /// Why a request got no answer, in words: Foundation's text for the common `URLError`s is
    /// "The operation could not be completed. (NSURLErrorDomain error -1001.)" on Linux.
    static func reason(of error: Error, timeout: TimeInterval) -> String {
        guard let code = (error as? URLError)?.code else { return error.localizedDescription }
        switch code {
        case .timedOut:
            return "no answer within \(Int(timeout)) s (the server accepts connections but does not respond)"
        case .cannotConnectToHost: return "connection refused (is `mlflow server` running on that port?)"
        case .cannotFindHost: return "unknown host name"
        case .networkConnectionLost: return "the connection was closed before the answer"
        default: return error.localizedDescription
        }
    }

    /// The completion handler's values, handed from URLSession's thread to the waiting one.
    private final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var data: Data?
        private var response: HTTPURLResponse?
        private var error: Error?

        func set(data: Data?, response: HTTPURLResponse?, error: Error?) {
            lock.lock()
            defer { lock.unlock() }
            (self.data, self.response, self.error) = (data, response, error)
        }

        func get() -> (Data?, HTTPURLResponse?, Error?) {
            lock.lock()
            defer { lock.unlock() }
            return (data, response, error)
        }
    }
}
