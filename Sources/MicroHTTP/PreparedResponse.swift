internal import CMicroHTTPD
import Foundation

/// A complete response built once and sent as it is to any number of requests: the pre-encoded answer of a hot
/// path. libmicrohttpd then copies no body and adds no header per request.
///
/// Return it with ``Response/init(prepared:)``. 204/304 and HEAD semantics are libmicrohttpd's own; while the
/// server drains, the server sends a copy that carries `Connection: close` instead.
public final class PreparedResponse: @unchecked Sendable {
    // Safe: every stored property is immutable after init; libmicrohttpd reference-counts the response under its
    // own lock, so queueing it on several connections at once is allowed.

    /// The status code.
    public let status: Int
    /// The header fields.
    public let headers: HTTPHeaders
    /// The body.
    public let body: Data
    /// The libmicrohttpd response, nil if libmicrohttpd could not create it (then sent the ordinary way).
    let handle: OpaquePointer?
    private let storage: UnsafeMutableRawBufferPointer

    /// Builds the response once.
    public init(status: Int, headers: HTTPHeaders, body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(body.count, 1), alignment: 1)
        body.copyBytes(to: storage)
        var created = MHD_create_response_from_buffer(body.count, storage.baseAddress, .RESPMEM_PERSISTENT)
        if let response = created {
            for (name, value) in headers where !DaemonCallbacks.isManaged(name) {
                if MHD_add_response_header(response, name, value) == .NO {
                    MHD_destroy_response(response)
                    created = nil
                    break
                }
            }
        }
        handle = created
    }

    deinit {
        if let handle {
            MHD_destroy_response(handle)
        }
        storage.deallocate()
    }
}
