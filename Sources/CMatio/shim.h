#ifndef ACTIONLAB_CMATIO_SHIM_H
#define ACTIONLAB_CMATIO_SHIM_H
#include <matio.h>

/*
 * libmatio's log levels are macros written as shifts, which Swift does not import; each one
 * becomes a static inline function here. Swift code never spells their numeric values.
 */
static inline int actionlab_MATIO_LOG_LEVEL_ERROR(void) { return MATIO_LOG_LEVEL_ERROR; }
static inline int actionlab_MATIO_LOG_LEVEL_CRITICAL(void) { return MATIO_LOG_LEVEL_CRITICAL; }
static inline int actionlab_MATIO_LOG_LEVEL_WARNING(void) { return MATIO_LOG_LEVEL_WARNING; }
static inline int actionlab_MATIO_LOG_LEVEL_MESSAGE(void) { return MATIO_LOG_LEVEL_MESSAGE; }
static inline int actionlab_MATIO_LOG_LEVEL_DEBUG(void) { return MATIO_LOG_LEVEL_DEBUG; }

#endif
