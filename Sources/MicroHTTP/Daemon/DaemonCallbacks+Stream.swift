internal import CMicroHTTPD
import Foundation

extension DaemonCallbacks {
    /// Creates the libmicrohttpd response sending `feed`'s stream (already attached to it) and records the stream
    /// with the request and the server; nil, with the stream closed, if libmicrohttpd cannot create it.
    static func makeStreamResponse(_ feed: StreamConnection, for state: RequestState, context: ServerContext) -> OpaquePointer? {
        let cls = Unmanaged.passRetained(feed).toOpaque()
        guard let created = CMicroHTTPD_create_stream_response(StreamConnection.blockSize, readStream, cls, releaseStream) else {
            Unmanaged<StreamConnection>.fromOpaque(cls).release()
            feed.stream.detach()
            context.logger.error("libmicrohttpd could not create a streamed response")
            return nil
        }
        state.stream = feed.stream
        state.streamConnection = feed
        if !context.streams.add(feed.stream) {
            feed.stream.finish()
        }
        return created
    }

    /// The content reader of a streamed response: queued bytes, or a suspension until there are some.
    static let readStream: MHD_ContentReaderCallback = { cls, _, buffer, max in
        guard let cls, let buffer, max > 0 else {
            return CMicroHTTPD_reader_end_with_error()
        }
        let feed = Unmanaged<StreamConnection>.fromOpaque(cls).takeUnretainedValue()
        return feed.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max))
    }

    /// Releases the content reader's state once libmicrohttpd has destroyed the response.
    static let releaseStream: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else {
            return
        }
        Unmanaged<StreamConnection>.fromOpaque(cls).release()
    }
}
