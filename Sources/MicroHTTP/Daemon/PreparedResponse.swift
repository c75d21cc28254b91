internal import CMicroHTTPD
import Foundation

/// A complete response built once and sent as it is to any number of requests: the pre-encoded answer of a hot
/// path. libmicrohttpd sends its body from the bytes kept here, uncopied; per request it gets a response of its own
/// (cheap: no body copy), since the server adds fields of the request's own (its id, the cross-origin fields).
///
/// Return it with ``Response/init(prepared:)``. 204/304 and HEAD semantics are libmicrohttpd's own.
public final class PreparedResponse: @unchecked Sendable {
    // Safe: every stored property is immutable after init; the bytes behind `storage` are only read.

    /// The status code.
    public let status: Int
    /// The header fields.
    public let headers: HTTPHeaders
    /// The body.
    public let body: Data
    private let storage: UnsafeMutableRawBufferPointer
    /// The header fields libmicrohttpd is given, as C strings made once: without `Content-Length` and
    /// `Transfer-Encoding`, which it writes itself.
    let fields: [(name: ContiguousArray<CChar>, value: ContiguousArray<CChar>)]

    /// Builds the response once.
    public init(status: Int, headers: HTTPHeaders, body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(body.count, 1), alignment: 1)
        body.copyBytes(to: storage)
        fields = headers.filter { !DaemonCallbacks.isManaged($0.name) }
            .map { ($0.name.utf8CString, $0.value.utf8CString) }
    }

    /// A libmicrohttpd response sending this body without copying it, without header fields; nil if libmicrohttpd
    /// could not create one. The caller keeps `self` alive until the request completes.
    func makeResponse() -> OpaquePointer? {
        MHD_create_response_from_buffer(body.count, storage.baseAddress, .RESPMEM_PERSISTENT)
    }

    deinit {
        storage.deallocate()
    }
}
