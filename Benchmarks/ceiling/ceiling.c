/* The ceiling for tabconfig's stack: a minimal libmicrohttpd server that answers GET of each given path with the
   given file's bytes as application/json (404 with no body for any other path; a PATH ending in '*' takes every path
   that starts with what comes before it), from responses created once
   (MHD_RESPMEM_PERSISTENT) and shared by every request. Same daemon flags and limits as the service
   (Sources/MicroHTTP/Daemon/Daemon.swift, Sources/CMicroHTTPD/shim.h), so what it measures is libmicrohttpd itself with
   nothing of ours on top.

     ceiling --port PORT [--mode poll|epoll|select|per-connection] [--threads N] [--turbo] [--per-request FIELDS]
             PATH[*]=FILE [PATH[*]=FILE...]

   --per-request FIELDS answers as MicroHTTP must: a response created for every request over the same bytes, with
   the header fields of the file FIELDS (`Name: value` lines, as Benchmarks/harness.py's fields_of writes them) and an
   X-Request-Id of its own, destroyed once queued: the least any server answering each request with its own id does.
   --mode picks how connections are polled (default poll, like the service); --threads the internal thread pool
   (default 4, like TABCONFIG_THREADS; 1 = one internal polling thread; ignored with per-connection); --turbo adds
   MHD_USE_TURBO. Listens on 127.0.0.1 until SIGINT or SIGTERM. Built by Benchmarks/reads.py:
     gcc -O2 -o ceiling ceiling.c $(pkg-config --cflags --libs libmicrohttpd) */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <microhttpd.h>

#define MAX_ROUTES 16
#define MAX_FIELDS 16

struct route
{
  const char *path;
  size_t prefix_length; /* 0: the path must equal `path`; else it must start with its first prefix_length bytes */
  struct MHD_Response *response;
  const char *bytes;
  size_t size;
};

/* --per-request: the fields every response gets, and the requests answered so far (one thread: no lock). */
static int per_request;
static char *field_names[MAX_FIELDS];
static char *field_values[MAX_FIELDS];
static size_t field_count;
static unsigned long long requests_answered;

static struct route routes[MAX_ROUTES];
static size_t route_count;
static struct MHD_Response *not_found;

static enum MHD_Result
answer (void *cls, struct MHD_Connection *connection, const char *url, const char *method, const char *version,
        const char *upload_data, size_t *upload_data_size, void **request_state)
{
  (void) cls;
  (void) version;
  (void) upload_data;
  static int seen;
  /* The first call brings the request head; answering only on the next one (the request is then complete) keeps
     the connection alive, as the service does. */
  if (NULL == *request_state)
  {
    *request_state = &seen;
    return MHD_YES;
  }
  if (0 != *upload_data_size || 0 != strcmp (method, MHD_HTTP_METHOD_GET))
    return MHD_NO;
  for (size_t i = 0; i < route_count; i++)
    if (0 == (routes[i].prefix_length ? strncmp (url, routes[i].path, routes[i].prefix_length)
                                      : strcmp (url, routes[i].path)))
    {
      if (!per_request)
        return MHD_queue_response (connection, MHD_HTTP_OK, routes[i].response);
      struct MHD_Response *response
        = MHD_create_response_from_buffer (routes[i].size, (void *) routes[i].bytes, MHD_RESPMEM_PERSISTENT);
      if (NULL == response)
        return MHD_NO;
      for (size_t f = 0; f < field_count; f++)
        MHD_add_response_header (response, field_names[f], field_values[f]);
      char id[32];
      snprintf (id, sizeof (id), "5f3c9a1e-%llx", ++requests_answered);
      MHD_add_response_header (response, "X-Request-Id", id);
      enum MHD_Result queued = MHD_queue_response (connection, MHD_HTTP_OK, response);
      MHD_destroy_response (response);
      return queued;
    }
  return MHD_queue_response (connection, MHD_HTTP_NOT_FOUND, not_found);
}

/* Reads the `Name: value` lines of text into field_names and field_values; 0 on success. */
static int
read_fields (char *text)
{
  for (char *line = strtok (text, "\r\n"); NULL != line; line = strtok (NULL, "\r\n"))
  {
    char *colon = strchr (line, ':');
    if (NULL == colon || field_count == MAX_FIELDS)
      return 1;
    *colon = '\0';
    char *value = colon + 1;
    while (' ' == *value)
      value++;
    field_names[field_count] = line;
    field_values[field_count] = value;
    field_count++;
  }
  return 0;
}

/* Reads a whole file into memory that lives as long as the process. */
static char *
read_file (const char *name, size_t *size)
{
  FILE *file = fopen (name, "rb");
  if (NULL == file)
    return NULL;
  char *bytes = NULL;
  size_t capacity = 0;
  size_t length = 0;
  for (;;)
  {
    if (length == capacity)
    {
      capacity = capacity ? capacity * 2 : 4096;
      char *grown = realloc (bytes, capacity);
      if (NULL == grown)
      {
        free (bytes);
        fclose (file);
        return NULL;
      }
      bytes = grown;
    }
    size_t got = fread (bytes + length, 1, capacity - length, file);
    length += got;
    if (0 == got)
      break;
  }
  int failed = ferror (file);
  fclose (file);
  if (failed)
  {
    free (bytes);
    return NULL;
  }
  *size = length;
  return bytes;
}

static int
usage (void)
{
  fprintf (stderr, "usage: ceiling --port PORT [--mode poll|epoll|select|per-connection] [--threads N] [--turbo] "
                   "[--per-request FIELDS] "
                   "PATH[*]=FILE [PATH[*]=FILE...]\n");
  return 2;
}

int
main (int argc, char **argv)
{
  unsigned int port = 0;
  unsigned int threads = 4;
  const char *mode = "poll";
  unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ITC | MHD_USE_ERROR_LOG | MHD_ALLOW_SUSPEND_RESUME;

  for (int i = 1; i < argc; i++)
  {
    if (0 == strcmp (argv[i], "--port") && i + 1 < argc)
      port = (unsigned int) strtoul (argv[++i], NULL, 10);
    else if (0 == strcmp (argv[i], "--threads") && i + 1 < argc)
      threads = (unsigned int) strtoul (argv[++i], NULL, 10);
    else if (0 == strcmp (argv[i], "--mode") && i + 1 < argc)
      mode = argv[++i];
    else if (0 == strcmp (argv[i], "--turbo"))
      flags |= MHD_USE_TURBO;
    else if (0 == strcmp (argv[i], "--per-request") && i + 1 < argc)
    {
      size_t size = 0;
      char *text = read_file (argv[++i], &size);
      char *terminated = NULL == text ? NULL : realloc (text, size + 1);
      if (NULL == terminated)
      {
        fprintf (stderr, "ceiling: cannot read %s\n", argv[i]);
        return 1;
      }
      terminated[size] = '\0';
      if (0 != read_fields (terminated))
      {
        fprintf (stderr, "ceiling: %s is not `Name: value` lines (at most %d)\n", argv[i], MAX_FIELDS);
        return 1;
      }
      per_request = 1;
    }
    else if (NULL != strchr (argv[i], '=') && '/' == argv[i][0] && route_count < MAX_ROUTES)
    {
      char *separator = strchr (argv[i], '=');
      *separator = '\0';
      size_t size = 0;
      char *bytes = read_file (separator + 1, &size);
      if (NULL == bytes)
      {
        fprintf (stderr, "ceiling: cannot read %s: %s\n", separator + 1, strerror (errno));
        return 1;
      }
      routes[route_count].path = argv[i];
      size_t length = strlen (argv[i]);
      if ('*' == argv[i][length - 1])
        routes[route_count].prefix_length = length - 1;
      routes[route_count].bytes = bytes;
      routes[route_count].size = size;
      routes[route_count].response = MHD_create_response_from_buffer (size, bytes, MHD_RESPMEM_PERSISTENT);
      if (NULL == routes[route_count].response
          || MHD_NO == MHD_add_response_header (routes[route_count].response, MHD_HTTP_HEADER_CONTENT_TYPE,
                                                "application/json"))
      {
        fprintf (stderr, "ceiling: cannot create the response of %s\n", argv[i]);
        return 1;
      }
      route_count++;
    }
    else
      return usage ();
  }
  if (0 == port || 0 == route_count || 0 == threads)
    return usage ();
  not_found = MHD_create_response_from_buffer (0, NULL, MHD_RESPMEM_PERSISTENT);
  if (NULL == not_found)
    return 1;

  if (0 == strcmp (mode, "poll"))
    flags |= MHD_USE_POLL;
  else if (0 == strcmp (mode, "epoll"))
    flags |= MHD_USE_EPOLL;
  else if (0 == strcmp (mode, "per-connection"))
  {
    flags |= MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL;
    threads = 1;
  }
  else if (0 != strcmp (mode, "select"))
    return usage ();

  struct sockaddr_in address;
  memset (&address, 0, sizeof (address));
  address.sin_family = AF_INET;
  address.sin_port = htons ((uint16_t) port);
  address.sin_addr.s_addr = htonl (INADDR_LOOPBACK);

  /* Signals are taken synchronously below; block them before MHD starts its threads so they inherit the mask. */
  sigset_t stop_signals;
  sigemptyset (&stop_signals);
  sigaddset (&stop_signals, SIGINT);
  sigaddset (&stop_signals, SIGTERM);
  pthread_sigmask (SIG_BLOCK, &stop_signals, NULL);

  struct MHD_Daemon *daemon;
  if (threads > 1)
    daemon = MHD_start_daemon (flags, (uint16_t) port, NULL, NULL, answer, NULL,
                               MHD_OPTION_SOCK_ADDR, (const struct sockaddr *) &address,
                               MHD_OPTION_CONNECTION_LIMIT, (unsigned int) 1024,
                               MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) 30,
                               MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t) (32 * 1024),
                               MHD_OPTION_THREAD_POOL_SIZE, threads,
                               MHD_OPTION_END);
  else
    daemon = MHD_start_daemon (flags, (uint16_t) port, NULL, NULL, answer, NULL,
                               MHD_OPTION_SOCK_ADDR, (const struct sockaddr *) &address,
                               MHD_OPTION_CONNECTION_LIMIT, (unsigned int) 1024,
                               MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int) 30,
                               MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t) (32 * 1024),
                               MHD_OPTION_END);
  if (NULL == daemon)
  {
    fprintf (stderr, "ceiling: libmicrohttpd could not start on 127.0.0.1:%u\n", port);
    return 1;
  }
  printf ("ceiling: listening on http://127.0.0.1:%u (mode %s, threads %u%s)\n", port, mode, threads,
          (flags & MHD_USE_TURBO) ? ", turbo" : "");
  fflush (stdout);

  int received = 0;
  sigwait (&stop_signals, &received);
  MHD_stop_daemon (daemon);
  return 0;
}
