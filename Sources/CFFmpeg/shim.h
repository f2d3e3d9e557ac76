#ifndef ACTIONLAB_CFFMPEG_SHIM_H
#define ACTIONLAB_CFFMPEG_SHIM_H
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavdevice/version_major.h>
#include <libswscale/swscale.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/frame.h>
#include <libavutil/imgutils.h>
#include <libavutil/pixdesc.h>

// Macros Swift cannot import, as functions. Swift code never spells their values.

/// AVERROR(EAGAIN): output is not available yet; send more input.
static inline int cffmpeg_averror_eagain(void) { return AVERROR(EAGAIN); }
/// AVERROR_EOF: the end of the file, or of the decoder's output after a flush.
static inline int cffmpeg_averror_eof(void) { return AVERROR_EOF; }
/// AVERROR(e) for a POSIX error number e (the failure of a system call this module makes).
static inline int cffmpeg_averror_from_errno(int e) { return AVERROR(e); }
/// AVERROR(ENOENT): no such file or directory.
static inline int cffmpeg_averror_enoent(void) { return AVERROR(ENOENT); }
/// AVERROR(ENOMEM): an allocation failed.
static inline int cffmpeg_averror_enomem(void) { return AVERROR(ENOMEM); }
/// AVERROR(EINVAL): an invalid argument, such as a pixel format libswscale cannot convert.
static inline int cffmpeg_averror_einval(void) { return AVERROR(EINVAL); }
/// AVERROR_INVALIDDATA: invalid data found when processing input.
static inline int cffmpeg_averror_invaliddata(void) { return AVERROR_INVALIDDATA; }
/// AVERROR_STREAM_NOT_FOUND: av_find_best_stream found no stream of the requested type.
static inline int cffmpeg_averror_stream_not_found(void) { return AVERROR_STREAM_NOT_FOUND; }
/// AVERROR_DECODER_NOT_FOUND: the best stream's codec has no decoder in this build.
static inline int cffmpeg_averror_decoder_not_found(void) { return AVERROR_DECODER_NOT_FOUND; }
/// AV_ERROR_MAX_STRING_SIZE: the buffer size av_strerror needs.
static inline int cffmpeg_error_max_string_size(void) { return AV_ERROR_MAX_STRING_SIZE; }
/// AV_NOPTS_VALUE: an undefined timestamp.
static inline int64_t cffmpeg_nopts_value(void) { return AV_NOPTS_VALUE; }
/// AV_FRAME_FLAG_CORRUPT: the decoded frame may contain errors.
static inline int cffmpeg_frame_flag_corrupt(void) { return AV_FRAME_FLAG_CORRUPT; }
/// AV_PKT_FLAG_CORRUPT: the demuxer read less data than the packet should hold.
static inline int cffmpeg_packet_flag_corrupt(void) { return AV_PKT_FLAG_CORRUPT; }
/// AV_PIX_FMT_FLAG_RGB: the pixel format stores RGB, not YUV or gray.
static inline uint64_t cffmpeg_pix_fmt_flag_rgb(void) { return AV_PIX_FMT_FLAG_RGB; }
/// The number of int32 entries of a display matrix (3 x 3, AV_PKT_DATA_DISPLAYMATRIX).
static inline int cffmpeg_display_matrix_count(void) { return 9; }

/// Registers libavdevice's input devices (video4linux2, lavfi, ...) with libavformat, loading
/// libavdevice of this FFmpeg's major version at run time. Linked, libavdevice brought about 75
/// more shared libraries (SDL, X11, PulseAudio, ...) that every process loaded and resolved at
/// start-up, which only live capture uses. Returns NULL, or dlopen's or dlsym's message.
static inline const char *cffmpeg_register_devices(void) {
    char name[32];
    snprintf(name, sizeof name, "libavdevice.so.%d", LIBAVDEVICE_VERSION_MAJOR);
    void *library = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
    if (!library) return dlerror();
    void (*register_all)(void) = (void (*)(void))dlsym(library, "avdevice_register_all");
    if (!register_all) return dlerror();
    register_all();
    return NULL;
}
#endif
