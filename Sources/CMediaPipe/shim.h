#ifndef ACTIONLAB_CMEDIAPIPE_SHIM_H
#define ACTIONLAB_CMEDIAPIPE_SHIM_H
// The part of the MediaPipe Tasks C API (libmediapipe.so) that ActionLab's pose estimator uses.
//
// MediaPipe's PyPI wheel ships the library without its C headers, so these declarations are
// transcribed from the wheel's own Python ctypes bindings, mediapipe==1.2.3:
//   mediapipe/tasks/python/vision/pose_landmarker.py          MpPoseLandmarkerOptionsC,
//       MpPoseLandmarkerResultC, _C_TYPES_RESULT_CALLBACK, _CTYPES_SIGNATURES
//   mediapipe/tasks/python/core/base_options_c.py             MpBaseOptionsC
//   mediapipe/tasks/python/core/base_options.py               BaseOptions.Delegate
//   mediapipe/tasks/python/core/mediapipe_c_utils.py          MpStatus, CStatusFunction (every
//       status function takes a trailing `char **error_msg`, freed with MpErrorFree)
//   mediapipe/tasks/python/core/mediapipe_c_bindings.py       MpErrorFree
//   mediapipe/tasks/python/components/containers/landmark_c.py  MpNormalizedLandmarkC, MpLandmarkC,
//       MpNormalizedLandmarksC, MpLandmarksC
//   mediapipe/tasks/python/components/containers/rect_c.py     MpRectFC
//   mediapipe/tasks/python/vision/core/image.py               ImageFormat, MpImageCreateFromUint8Data,
//       MpImageFree
//   mediapipe/tasks/python/vision/core/image_processing_options_c.py  MpImageProcessingOptionsC
//   mediapipe/tasks/python/vision/core/vision_task_running_mode.py    _CTYPE_VALUE_MAP
// ctypes lays out a Structure with the platform C compiler's rules, so these C structs match.
//
// Nothing here is linked: the library is opened with dlopen and each function is looked up with
// dlsym by the name in the comment above its pointer type (the Swift module Pose does this).
#include <stdbool.h>
#include <stdint.h>

/// Status code every status-returning function returns (mediapipe_c_utils.MpStatus).
typedef enum MpStatus {
    kMpOk = 0,
    kMpCancelled = 1,
    kMpUnknown = 2,
    kMpInvalidArgument = 3,
    kMpDeadlineExceeded = 4,
    kMpNotFound = 5,
    kMpAlreadyExists = 6,
    kMpPermissionDenied = 7,
    kMpResourceExhausted = 8,
    kMpFailedPrecondition = 9,
    kMpAborted = 10,
    kMpOutOfRange = 11,
    kMpUnimplemented = 12,
    kMpInternal = 13,
    kMpUnavailable = 14,
    kMpDataLoss = 15,
    kMpUnauthenticated = 16,
} MpStatus;

/// Pixel formats of an MpImage (image.ImageFormat); uint8 data accepts GRAY8, SRGB and SRGBA.
typedef enum MpImageFormat {
    kMpImageFormatUnknown = 0,
    kMpImageFormatSrgb = 1,
    kMpImageFormatSrgba = 2,
    kMpImageFormatGray8 = 3,
} MpImageFormat;

/// Running mode of a vision task (vision_task_running_mode._CTYPE_VALUE_MAP).
typedef enum MpRunningMode {
    kMpRunningModeImage = 1,
    kMpRunningModeVideo = 2,
    kMpRunningModeLiveStream = 3,
} MpRunningMode;

/// Inference delegate (base_options.BaseOptions.Delegate).
typedef enum MpDelegate {
    kMpDelegateDefault = 0,
    kMpDelegateCpu = 1,
    kMpDelegateGpu = 2,
} MpDelegate;

/// An opaque MediaPipe image (MpImage*).
typedef void *MpImagePtr;
/// An opaque pose landmarker (MpPoseLandmarker*).
typedef void *MpPoseLandmarkerPtr;

/// Where the model comes from and how it runs (MpBaseOptionsC). Set file_descriptor to -1 when
/// model_asset_path names the model.
typedef struct MpBaseOptions {
    const char *model_asset_buffer;
    unsigned int model_asset_buffer_count;
    const char *model_asset_path;
    int file_descriptor;
    int delegate;          // MpDelegate
    int host_environment;
    int host_system;
    const char *host_version;
    const char *ca_bundle_path;
    const char *app_id;
    const char *app_version;
    const char *npu_dispatch_library_dir;
} MpBaseOptions;

/// A landmark in normalized image coordinates (MpNormalizedLandmarkC): x and y in [0, 1] of the
/// image width and height when inside the image, origin at the top left; z is depth at roughly
/// the scale of x. visibility and presence are probabilities, valid when their has_ flag is set.
typedef struct MpNormalizedLandmark {
    float x;
    float y;
    float z;
    bool has_visibility;
    float visibility;
    bool has_presence;
    float presence;
    const char *name;
} MpNormalizedLandmark;

/// The landmarks of one pose (MpNormalizedLandmarksC).
typedef struct MpNormalizedLandmarks {
    MpNormalizedLandmark *landmarks;
    uint32_t landmarks_count;
} MpNormalizedLandmarks;

/// A landmark in world coordinates, meters, origin between the hips (MpLandmarkC).
typedef struct MpLandmark {
    float x;
    float y;
    float z;
    bool has_visibility;
    float visibility;
    bool has_presence;
    float presence;
    const char *name;
} MpLandmark;

/// The world landmarks of one pose (MpLandmarksC).
typedef struct MpLandmarks {
    MpLandmark *landmarks;
    uint32_t landmarks_count;
} MpLandmarks;

/// What one detection call found (MpPoseLandmarkerResultC); filled by the library and released
/// with MpPoseLandmarkerCloseResult.
typedef struct MpPoseLandmarkerResult {
    MpImagePtr *segmentation_masks;
    uint32_t segmentation_masks_count;
    MpNormalizedLandmarks *pose_landmarks;
    uint32_t pose_landmarks_count;
    MpLandmarks *pose_world_landmarks;
    uint32_t pose_world_landmarks_count;
} MpPoseLandmarkerResult;

/// A rectangle in normalized coordinates (MpRectFC).
typedef struct MpRectF {
    float left;
    float top;
    float bottom;
    float right;
} MpRectF;

/// Region of interest and rotation applied before detection (MpImageProcessingOptionsC); pass NULL
/// for none.
typedef struct MpImageProcessingOptions {
    bool has_region_of_interest;
    MpRectF region_of_interest;
    int rotation_degrees;
} MpImageProcessingOptions;

/// Live-stream result callback (_C_TYPES_RESULT_CALLBACK): status, result, image, timestamp in ms.
typedef void (*MpPoseLandmarkerResultCallback)(int status, MpPoseLandmarkerResult *result, MpImagePtr image,
                                               int64_t timestamp_ms);

/// Options of a pose landmarker (MpPoseLandmarkerOptionsC).
typedef struct MpPoseLandmarkerOptions {
    MpBaseOptions base_options;
    int running_mode;      // MpRunningMode
    int num_poses;
    float min_pose_detection_confidence;
    float min_pose_presence_confidence;
    float min_tracking_confidence;
    bool output_segmentation_masks;
    MpPoseLandmarkerResultCallback result_callback;  // live-stream mode only; NULL otherwise
} MpPoseLandmarkerOptions;

// ---- Functions, as pointer types for dlsym --------------------------------------------------

/// MpPoseLandmarkerCreate(options, &landmarker, &error_msg)
typedef MpStatus (*MpPoseLandmarkerCreateFunction)(MpPoseLandmarkerOptions *options,
                                                   MpPoseLandmarkerPtr *landmarker, char **error_msg);
/// MpPoseLandmarkerDetectImage(landmarker, image, processing_options or NULL, &result, &error_msg)
typedef MpStatus (*MpPoseLandmarkerDetectImageFunction)(MpPoseLandmarkerPtr landmarker, MpImagePtr image,
                                                        const MpImageProcessingOptions *processing_options,
                                                        MpPoseLandmarkerResult *result, char **error_msg);
/// MpPoseLandmarkerDetectForVideo(landmarker, image, processing_options or NULL, timestamp_ms,
/// &result, &error_msg); timestamps must increase strictly from call to call.
typedef MpStatus (*MpPoseLandmarkerDetectForVideoFunction)(MpPoseLandmarkerPtr landmarker, MpImagePtr image,
                                                           const MpImageProcessingOptions *processing_options,
                                                           int64_t timestamp_ms, MpPoseLandmarkerResult *result,
                                                           char **error_msg);
/// MpPoseLandmarkerCloseResult(&result): frees what a detect call put in result.
typedef void (*MpPoseLandmarkerCloseResultFunction)(MpPoseLandmarkerResult *result);
/// MpPoseLandmarkerClose(landmarker, &error_msg)
typedef MpStatus (*MpPoseLandmarkerCloseFunction)(MpPoseLandmarkerPtr landmarker, char **error_msg);
/// MpImageCreateFromUint8Data(format, width, height, pixels, pixel_byte_count, &image, &error_msg):
/// pixels are rows of width * channels bytes, without padding.
typedef MpStatus (*MpImageCreateFromUint8DataFunction)(int format, int width, int height, const uint8_t *pixels,
                                                       int pixel_byte_count, MpImagePtr *image, char **error_msg);
/// MpImageFree(image)
typedef void (*MpImageFreeFunction)(MpImagePtr image);
/// MpErrorFree(error_msg): frees a message a status function returned.
typedef void (*MpErrorFreeFunction)(char *error_msg);

#endif
