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
        var consumed = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 18)
        while consumed < input.count {
            var stream = z_stream()
            guard rws_inflate_init_gzip(&stream) == Z_OK else { throw failure(step, "inflateInit failed") }
            defer { inflateEnd(&stream) }
            var status = Z_OK
            input.withUnsafeBufferPointer { source in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress! + consumed)
                stream.avail_in = UInt32(input.count - consumed)
                repeat {
                    chunk.withUnsafeMutableBufferPointer { buffer in
                        stream.next_out = buffer.baseAddress
                        stream.avail_out = UInt32(buffer.count)
                        status = inflate(&stream, Z_NO_FLUSH)
                        output.append(contentsOf: buffer.prefix(buffer.count - Int(stream.avail_out)))
                    }
                } while status == Z_OK
            }
            guard status == Z_STREAM_END else { throw failure(step, "gzip data is cut or damaged (zlib status \(status))") }
            consumed = input.count - Int(stream.avail_in)
        }
        return output
    }

    private static func failure(_ step: String, _ reason: String) -> RemoteSessionError {
        .malformedOutput(step: step, reason: reason)
    }
}
