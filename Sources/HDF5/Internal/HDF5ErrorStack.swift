internal import CHDF5

/// Reads HDF5's own description of the most recent failure.
enum HDF5ErrorStack {
    /// One record of an error stack: the function that reported it, its description and the
    /// text of its minor error number.
    struct Record: Equatable {
        var function: String
        var description: String
        var minor: String
    }

    /// Takes the current error stack (which clears it) and condenses it to one line: the HDF5
    /// API function called and the innermost record's explanation, for example
    /// `H5Fopen(): file signature not found (not an HDF5 file)`.
    ///
    /// HDF5 reports one record per layer, outermost first; a full disk gives 15 records and
    /// 1-2 KB of text (every layer saying it could not flush). See ``condense(_:)``.
    /// Call with the lock held, right after the failing call: the next HDF5 call resets the stack.
    static func takeMessage() -> String {
        condense(takeRecords())
    }

    /// The current error stack's records, outermost (the API function) first; clears the stack.
    static func takeRecords() -> [Record] {
        let stack = H5Eget_current_stack()
        guard stack >= 0 else { return [] }
        defer { _ = H5Eclose_stack(stack) }
        var records: [Record] = []
        withUnsafeMutablePointer(to: &records) { recordsPointer in
            _ = H5Ewalk2(stack, H5E_WALK_DOWNWARD, { _, record, clientData in
                guard let record, let clientData else { return 0 }
                let records = clientData.assumingMemoryBound(to: [Record].self)
                records.pointee.append(Record(
                    function: record.pointee.func_name.map { String(cString: $0) } ?? "?",
                    description: record.pointee.desc.map { String(cString: $0) } ?? "",
                    minor: HDF5ErrorStack.messageText(record.pointee.min_num)))
                return 0
            }, recordsPointer)
        }
        return records
    }

    /// One line from a stack: `API(): innermost explanation (minor message)`.
    ///
    /// The innermost record says what actually failed; the outer ones repeat "unable to ..." per
    /// layer. A system-call record (`file write failed: time = ..., filename = ..., errno = 28,
    /// error message = 'No space left on device', buf = 0x...`) is cut to its first clause and the
    /// system's message; the file name is left out because ``HDF5Error`` carries it.
    static func condense(_ records: [Record]) -> String {
        guard let innermost = records.last else { return "" }
        var text = innermost.description
        if let systemMessage = quotedValue(after: "error message = '", in: text) {
            let clause = text.split(separator: ":", maxSplits: 1).first.map(String.init) ?? text
            let number = quotedValue(after: "errno = ", in: text, terminator: ",").map { " (errno \($0))" } ?? ""
            text = "\(clause): \(systemMessage)\(number)"
        }
        if text.count > 300 { text = String(text.prefix(300)) + "..." }
        if !innermost.minor.isEmpty, !text.lowercased().contains(innermost.minor.lowercased()) {
            text += " (\(innermost.minor))"
        }
        let api = records[0].function
        return api == innermost.function ? "\(api)(): \(text)" : "\(api)(): \(innermost.function)(): \(text)"
    }

    /// The text between `marker` and the next `terminator` in `text`, or nil.
    private static func quotedValue(after marker: String, in text: String, terminator: Character = "'") -> String? {
        guard let start = text.range(of: marker)?.upperBound else { return nil }
        let rest = text[start...]
        return String(rest.prefix { $0 != terminator })
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
