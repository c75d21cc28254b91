#ifndef CCOMPRESSION_SHIM_H
#define CCOMPRESSION_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <brotli/encode.h>
#include <zlib.h>

/* Wrappers for the parts of zlib Swift cannot call directly: deflateInit2 is a macro. */

/** Compresses `input` into `output` (of `*output_size` bytes) as one gzip member (RFC 1952) at `level`. On success
    returns Z_OK and sets `*output_size` to the bytes written; Z_BUF_ERROR when `output` is too small. */
static inline int
CCompression_gzip (const uint8_t *input, size_t input_size, uint8_t *output, size_t *output_size, int level)
{
  z_stream stream = { 0 };
  /* 15 + 16: a 32 KiB window and a gzip header and trailer instead of zlib's. */
  int status = deflateInit2 (&stream, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
  if (status != Z_OK)
    return status;
  stream.next_in = (Bytef *) input;
  stream.avail_in = (uInt) input_size;
  stream.next_out = output;
  stream.avail_out = (uInt) *output_size;
  status = deflate (&stream, Z_FINISH);
  *output_size = stream.total_out;
  deflateEnd (&stream);
  return status == Z_STREAM_END ? Z_OK : Z_BUF_ERROR;
}

#endif
