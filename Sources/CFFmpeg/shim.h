#ifndef ACTIONLAB_CFFMPEG_SHIM_H
#define ACTIONLAB_CFFMPEG_SHIM_H
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>

/// AVERROR(EAGAIN) as a function: a macro Swift cannot import.
static inline int cffmpeg_averror_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR_EOF as a function.
static inline int cffmpeg_averror_eof(void) { return AVERROR_EOF; }
#endif
