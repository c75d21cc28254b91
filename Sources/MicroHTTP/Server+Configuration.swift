extension Server {
    /// Listening address, threading, limits and timeouts of a ``Server``.
    public struct Configuration: Sendable {
        /// An IPv4 or IPv6 address literal; "0.0.0.0" or "::" listen on every interface.
        public var host: String = "127.0.0.1"
        /// The TCP port; 0 picks a free one (read it from ``Server/port`` after starting).
        public var port: Int = 8080
        /// Worker threads, each polling its share of the connections with poll(); 1 means a single internal thread.
        public var threadPoolSize: Int = 4
        /// The most connections served at once.
        public var connectionLimit: Int = 1024
        /// The most connections from one IP address; 0 means unlimited.
        public var perIPConnectionLimit: Int = 0
        /// Seconds an idle connection is kept open; 0 means forever.
        public var connectionTimeout: Int = 30
        /// Seconds a connection has to send a complete request head (request line and header fields), counted from
        /// when it was accepted or, on a kept-alive connection, from its first data after the previous response;
        /// past it the server closes the connection. 0 means no deadline. Defaults to ``connectionTimeout``.
        public var requestHeadTimeout: Int {
            get { explicitRequestHeadTimeout ?? connectionTimeout }
            set { explicitRequestHeadTimeout = newValue }
        }
        /// Bytes of memory per connection; bounds the request head (libmicrohttpd answers 431/414 past it).
        public var connectionMemoryLimit: Int = 32 * 1024
        /// The largest request body accepted, in bytes; larger ones are answered with 413.
        public var maxBodySize: Int = 1024 * 1024
        /// Whether every finished request is logged at `info` (method, route, status, duration, bytes, request id).
        public var accessLog = false
        /// The access log's line format: swift-log's `StreamLogHandler` text, or one JSON object a line.
        public var logFormat = LogFormat.text
        /// Which web pages on other origins may read the responses; none by default.
        public var crossOrigin = CrossOriginPolicy()
        /// Told about every request when it ends (metrics); none by default.
        public var requestObserver: (any RequestObserver)?

        private var explicitRequestHeadTimeout: Int?

        /// Creates the default configuration.
        public init() {}
    }
}
