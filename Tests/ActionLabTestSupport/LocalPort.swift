import Foundation

/// A local port nothing listens on now: the kernel's choice for a socket bound to port 0 of
/// 127.0.0.1, released again.
public func unusedLocalPort(type: Int32 = Int32(SOCK_DGRAM.rawValue)) throws -> Int {
    let socketDescriptor = socket(AF_INET, type, 0)
    guard socketDescriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    defer { close(socketDescriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let status = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
            bind(socketDescriptor, socketAddress, length) == 0 ? getsockname(socketDescriptor, socketAddress, &length) : -1
        }
    }
    guard status == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    return Int(UInt16(bigEndian: address.sin_port))
}
