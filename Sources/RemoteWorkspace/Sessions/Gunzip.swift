import CZlib

/// Decompresses what `gzip -c` printed on the box (one or more concatenated gzip members).
///
/// Foundation has no gzip on Linux; zlib is already on every machine that has libssh2
/// (`zlib1g-dev` on Debian), so this is a few lines over its `inflate`.
enum Gunzip {
    /// The decompressed bytes.
    ///
    /// - Throws: ``RemoteSessionError/malformedOutput(step:reason:)`` when the bytes are not gzip.
    static func decompress(_ input: [UInt8], step: String) throws -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 6)
        let stream = GunzipStream(step: step)
        try stream.feed(input) { output += $0 }
        try stream.finish()
        return output
    }
}

/// Decompresses `gzip -c` output as it arrives, a piece at a time (one or more concatenated
/// members), so that neither the compressed nor the decompressed bytes are ever held whole.
final class GunzipStream {
    // zlib's state points back at its z_stream: it must not move, so it lives on the heap.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var inMember = false
    private var output = [UInt8](repeating: 0, count: 1 << 18)
    private let step: String

    init(step: String) {
        self.step = step
        stream.initialize(to: z_stream())
    }

    deinit {
        if inMember { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Decompresses `input`, handing `write` each piece of output.
    ///
    /// - Throws: ``RemoteSessionError/malformedOutput(step:reason:)`` when the bytes are not gzip.
    func feed(_ input: [UInt8], into write: (ArraySlice<UInt8>) -> Void) throws {
        try input.withUnsafeBufferPointer { source in
            var offset = 0
            while offset < source.count {
                if !inMember {
                    guard rws_inflate_init_gzip(stream) == Z_OK else { throw failure("inflateInit failed") }
                    inMember = true
                }
                stream.pointee.next_in = UnsafeMutablePointer(mutating: source.baseAddress! + offset)
                stream.pointee.avail_in = UInt32(source.count - offset)
                let status = try inflateAvailable(into: write)
                offset = source.count - Int(stream.pointee.avail_in)
                if status == Z_STREAM_END {
                    inflateEnd(stream)
                    inMember = false
                }
            }
        }
    }

    /// Checks that the output ended where a gzip member ends.
    ///
    /// - Throws: ``RemoteSessionError/malformedOutput(step:reason:)`` when it was cut short.
    func finish() throws {
        guard !inMember else { throw failure("gzip data is cut short") }
    }

    /// Inflates until the input is used up or the member ends.
    private func inflateAvailable(into write: (ArraySlice<UInt8>) -> Void) throws -> Int32 {
        while true {
            let status = output.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = UInt32(buffer.count)
                return inflate(stream, Z_NO_FLUSH)
            }
            let produced = output.count - Int(stream.pointee.avail_out)
            if produced > 0 { write(output[0..<produced]) }
            switch status {
            case Z_STREAM_END: return status
            case Z_OK: if stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0 { return status }
            case Z_BUF_ERROR: return status  // needs more input
            default: throw failure("gzip data is damaged (zlib status \(status))")
            }
        }
    }

    private func failure(_ reason: String) -> RemoteSessionError {
        .malformedOutput(step: step, reason: reason)
    }
}
