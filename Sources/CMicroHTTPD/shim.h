#ifndef CMICROHTTPD_SHIM_H
#define CMICROHTTPD_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
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
                          unsigned int thread_pool_size,
                          unsigned int connection_limit,
                          unsigned int per_ip_connection_limit,
                          unsigned int connection_timeout,
                          size_t connection_memory_limit)
{
  if (thread_pool_size > 1)
    return MHD_start_daemon (flags, 0, NULL, NULL, handler, handler_cls,
                             MHD_OPTION_EXTERNAL_LOGGER, logger, logger_cls,
                             MHD_OPTION_LISTEN_SOCKET, (MHD_socket) listen_fd,
                             MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                             MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                             MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_connection_limit,
                             MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
                             MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
                             MHD_OPTION_THREAD_POOL_SIZE, thread_pool_size,
                             MHD_OPTION_END);
  return MHD_start_daemon (flags, 0, NULL, NULL, handler, handler_cls,
                           MHD_OPTION_EXTERNAL_LOGGER, logger, logger_cls,
                           MHD_OPTION_LISTEN_SOCKET, (MHD_socket) listen_fd,
                           MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                           MHD_OPTION_CONNECTION_LIMIT, connection_limit,
                           MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_connection_limit,
                           MHD_OPTION_CONNECTION_TIMEOUT, connection_timeout,
                           MHD_OPTION_CONNECTION_MEMORY_LIMIT, connection_memory_limit,
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

#endif /* CMICROHTTPD_SHIM_H */
