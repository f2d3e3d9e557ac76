internal import CMediaPipe
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// libmediapipe.so opened with `dlopen`, and the MediaPipe Tasks C functions ActionLab calls.
///
/// The library is opened at most once per path and process and never closed: it starts worker
/// threads that must not outlive its code, so the process-wide cache below owns every handle.
/// The functions themselves are declared in the `CMediaPipe` module (`shim.h`), which names the
/// Python ctypes bindings they were transcribed from.
final class MediaPipeLibrary: Sendable {  // immutable after init: C function pointers only
    /// The file that was opened.
    let path: String
    let poseLandmarkerCreate: MpPoseLandmarkerCreateFunction
    let poseLandmarkerDetectImage: MpPoseLandmarkerDetectImageFunction
    let poseLandmarkerDetectForVideo: MpPoseLandmarkerDetectForVideoFunction
    let poseLandmarkerCloseResult: MpPoseLandmarkerCloseResultFunction
    let poseLandmarkerClose: MpPoseLandmarkerCloseFunction
    let imageCreateFromUint8Data: MpImageCreateFromUint8DataFunction
    let imageFree: MpImageFreeFunction
    let errorFree: MpErrorFreeFunction

    private static let lock = NSLock()
    nonisolated(unsafe) private static var opened: [String: MediaPipeLibrary] = [:]  // guarded by `lock`

    /// The library at `path`, opened on first use.
    /// - Throws: ``PoseEstimationError/libraryNotLoadable(path:reason:)`` or
    ///   ``PoseEstimationError/missingFunction(name:libraryPath:)``.
    static func shared(at path: String) throws -> MediaPipeLibrary {
        lock.lock()
        defer { lock.unlock() }
        if let library = opened[path] { return library }
        let library = try MediaPipeLibrary(path: path)
        opened[path] = library
        return library
    }

    private init(path: String) throws {
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "unknown dynamic loader error"
            throw PoseEstimationError.libraryNotLoadable(path: path, reason: reason)
        }
        func function<Function>(_ name: String, as _: Function.Type) throws -> Function {
            guard let address = dlsym(handle, name) else {
                throw PoseEstimationError.missingFunction(name: name, libraryPath: path)
            }
            return unsafeBitCast(address, to: Function.self)
        }
        do {
            poseLandmarkerCreate = try function("MpPoseLandmarkerCreate", as: MpPoseLandmarkerCreateFunction.self)
            poseLandmarkerDetectImage = try function(
                "MpPoseLandmarkerDetectImage", as: MpPoseLandmarkerDetectImageFunction.self)
            poseLandmarkerDetectForVideo = try function(
                "MpPoseLandmarkerDetectForVideo", as: MpPoseLandmarkerDetectForVideoFunction.self)
            poseLandmarkerCloseResult = try function(
                "MpPoseLandmarkerCloseResult", as: MpPoseLandmarkerCloseResultFunction.self)
            poseLandmarkerClose = try function("MpPoseLandmarkerClose", as: MpPoseLandmarkerCloseFunction.self)
            imageCreateFromUint8Data = try function(
                "MpImageCreateFromUint8Data", as: MpImageCreateFromUint8DataFunction.self)
            imageFree = try function("MpImageFree", as: MpImageFreeFunction.self)
            errorFree = try function("MpErrorFree", as: MpErrorFreeFunction.self)
        } catch {
            dlclose(handle)  // nothing from this library has run yet
            throw error
        }
        self.path = path
    }

    /// Calls a status-returning MediaPipe function and turns a failure into a typed error.
    ///
    /// `body` receives the `char **error_msg` out-parameter every such function takes last; a
    /// message MediaPipe puts there is copied and released with `MpErrorFree`.
    /// - Parameters:
    ///   - function: The C function's name, for the error.
    ///   - body: Makes the call and returns its status.
    /// - Throws: ``PoseEstimationError/mediaPipe(function:status:message:)`` when the status is not OK.
    func check(_ function: String, _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> MpStatus) throws {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let status = body(&errorMessage)
        let message = errorMessage.map { String(cString: $0) }
        if let errorMessage { errorFree(errorMessage) }
        guard status == kMpOk else {
            throw PoseEstimationError.mediaPipe(
                function: function, status: MediaPipeStatus(code: Int32(bitPattern: status.rawValue)),
                message: message ?? "no message")
        }
    }
}
