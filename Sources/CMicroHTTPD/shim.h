#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stddef.h>
#include <string.h>
#include <strings.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <microhttpd.h>

/* Wrappers for the parts of libmicrohttpd Swift cannot call directly (variadic functions).
   Every option value is passed with the exact C type MHD reads it as. */

/** Starts a daemon on an already bound and listening socket. Returns NULL on failure. */
static inline struct MHD_Daemon *
CMicroHTTPD_start_daemon (unsigned int flags,
                          int listen_fd,
                          MHD_AccessHandlerCallback handler,
                          void *handler_cls,
                          MHD_RequestCompletedCallback completed,
                          void *completed_cls,
                          MHD_LogCallback logger,
                          void *logger_cls,
                          MHD_NotifyConnectionCallback notify_connection,
                          void *notify_connection_cls,
                          unsigned int thread_pool_size,
                          unsigned int connection_limit,
                          unsigned int per_ip_connection_limit,
                          unsigned int connection_timeout,
                          size_t connection_memory_limit)
{
  /* A pool of one is a single internal thread: the pool option is then left out (an empty option array). */
  struct MHD_OptionItem pool[] = {
    { thread_pool_size > 1 ? MHD_OPTION_THREAD_POOL_SIZE : MHD_OPTION_END, (intptr_t) thread_pool_size, NULL },
    { MHD_OPTION_END, 0, NULL },
  };
  return MHD_start_daemon (flags, 0, NULL, NULL, handler, handler_cls,
                           MHD_OPTION_EXTERNAL_LOGGER, logger, logger_cls,
                           MHD_OPTION_LISTEN_SOCKET, (MHD_socket) listen_fd,
                           MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                           MHD_OPTION_NOTIFY_CONNECTION, notify_connection, notify_connection_cls,
                           MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                           MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_connection_limit,
                           MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
                           MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                           MHD_OPTION_ARRAY, pool,
                           MHD_OPTION_END);
}

/** The peer address of a connection, or NULL if MHD does not know it. */
static inline const struct sockaddr *
CMicroHTTPD_client_address (struct MHD_Connection *connection)
{
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info (connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (NULL == info)
    return NULL;
  return info->client_addr;
}

/** What CMicroHTTPD_lookup searches for, and what it found. */
struct CMicroHTTPD_search
{
  const char *key;
  int caseless;
  int found;
  const char *value;
};

static enum MHD_Result
CMicroHTTPD_match_value (void *cls, enum MHD_ValueKind kind, const char *key, const char *value)
{
  struct CMicroHTTPD_search *search = cls;
  (void) kind;
  if (0 != (search->caseless ? strcasecmp (key, search->key) : strcmp (key, search->key)))
    return MHD_YES;
  search->found = 1;
  search->value = value;
  return MHD_NO;
}

/** Whether the request has a value of `kind` named `key` (header names compared ignoring case); if so, its first
    value goes to `*value` ("" for an argument without one). Unlike MHD_lookup_connection_value, tells an argument
    without a value from a missing one. */
static inline int
CMicroHTTPD_lookup (struct MHD_Connection *connection, enum MHD_ValueKind kind, const char *key, const char **value)
{
  struct CMicroHTTPD_search search = { key, MHD_HEADER_KIND == kind, 0, NULL };
  MHD_get_connection_values (connection, kind, CMicroHTTPD_match_value, &search);
  *value = NULL == search.value ? "" : search.value;
  return search.found;
}

/** The socket context the connection-notify callback stored for a connection, or NULL. */
static inline void *
CMicroHTTPD_socket_context (struct MHD_Connection *connection)
{
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info (connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  if (NULL == info)
    return NULL;
  return info->socket_context;
}

/** The socket of a connection, or -1 if MHD does not know it. */
static inline int
CMicroHTTPD_connection_fd (struct MHD_Connection *connection)
{
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info (connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  if (NULL == info)
    return -1;
  return (int) info->connect_fd;
}

/** Milliseconds since the kernel last received data on TCP socket `fd`, or -1 if it cannot tell. */
static inline int64_t
CMicroHTTPD_ms_since_last_data (int fd)
{
  struct tcp_info info;
  socklen_t length = sizeof (info);
  if (0 != getsockopt (fd, IPPROTO_TCP, TCP_INFO, &info, &length))
    return -1;
  if (length < offsetof (struct tcp_info, tcpi_last_data_recv) + sizeof (info.tcpi_last_data_recv))
    return -1;
  return (int64_t) info.tcpi_last_data_recv;
}

/** Ends both directions of socket `fd` without closing it (its owner still closes it). */
static inline int
CMicroHTTPD_shutdown_socket (int fd)
{
  return shutdown (fd, SHUT_RDWR);
}

/** A response of unknown length whose body comes from `reader` (sent chunked to HTTP/1.1 clients).
    MHD calls `release` with `reader_cls` once it is done with the response. Returns NULL on failure. */
static inline struct MHD_Response *
CMicroHTTPD_create_stream_response (size_t block_size,
                                    MHD_ContentReaderCallback reader,
                                    void *reader_cls,
                                    MHD_ContentReaderFreeCallback release)
{
  return MHD_create_response_from_callback (MHD_SIZE_UNKNOWN, block_size, reader, reader_cls, release);
}

/** What a content reader returns to end the body normally (chunked: the terminating chunk follows). */
static inline ssize_t
CMicroHTTPD_reader_end_of_stream (void)
{
  return MHD_CONTENT_READER_END_OF_STREAM;
}

/** What a content reader returns to abort the response: MHD closes the connection at once. */
static inline ssize_t
CMicroHTTPD_reader_end_with_error (void)
{
  return MHD_CONTENT_READER_END_WITH_ERROR;
}

#endif /* CMICROHTTPD_SHIM_H */
