internal import CHDF5

/// Reads HDF5's own description of the most recent failure.
enum HDF5ErrorStack {
    /// Takes the current error stack (which clears it) and renders it innermost-last as one line
    /// per record, for example `H5Fopen(): unable to open file (file open failed)`.
    ///
    /// Call with the lock held, right after the failing call: the next HDF5 call resets the stack.
    static func takeMessage() -> String {
        let stack = H5Eget_current_stack()
        guard stack >= 0 else { return "" }
        defer { _ = H5Eclose_stack(stack) }
        var lines: [String] = []
        withUnsafeMutablePointer(to: &lines) { linesPointer in
            _ = H5Ewalk2(stack, H5E_WALK_DOWNWARD, { _, record, clientData in
                guard let record, let clientData else { return 0 }
                let lines = clientData.assumingMemoryBound(to: [String].self)
                let function = record.pointee.func_name.map { String(cString: $0) } ?? "?"
                let description = record.pointee.desc.map { String(cString: $0) } ?? ""
                let minor = HDF5ErrorStack.messageText(record.pointee.min_num)
                var line = "\(function)(): \(description)"
                if !minor.isEmpty { line += " (\(minor))" }
                lines.pointee.append(line)
                return 0
            }, linesPointer)
        }
        return lines.joined(separator: "; ")
    }

    /// The text of an HDF5 major or minor error message identifier, or an empty string.
    static func messageText(_ messageID: hid_t) -> String {
        var type = H5E_MAJOR
        let length = H5Eget_msg(messageID, &type, nil, 0)
        guard length > 0 else { return "" }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        guard H5Eget_msg(messageID, &type, &buffer, buffer.count) > 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Discards the current error stack after a failure that the caller handles itself.
    static func clear() {
        _ = H5Eclear2(actionlab_H5E_DEFAULT())
    }
}
