import Foundation
import Platform

/// Small file-system helpers shared by the local conveniences.
enum LocalFiles {
    /// The whole file.
    static func readAll(_ url: URL) throws(SessionHistoryError) -> [UInt8] {
        do {
            return try SystemCall.readFile(url.path)
        } catch {
            throw .unreadableFile(path: url.path, reason: error.reason)
        }
    }

    /// The whole file, handed to `body` a piece of up to `chunkSize` bytes at a time.
    static func read(_ url: URL, chunkSize: Int, _ body: (ArraySlice<UInt8>) -> Void) throws(SessionHistoryError) {
        do {
            try SystemCall.readFile(url.path, chunkSize: chunkSize, body)
        } catch {
            throw .unreadableFile(path: url.path, reason: error.reason)
        }
    }

    /// The file's size and its first and last `count` bytes (one read when the file is small).
    static func readHeadAndTail(_ url: URL, count: Int) throws(SessionHistoryError) -> (size: Int, head: [UInt8], tail: [UInt8]) {
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            let size = Int(try handle.seekToEnd())
            try handle.seek(toOffset: 0)
            let head = [UInt8](try handle.read(upToCount: count) ?? Data())
            guard size > count else { return (size, head, head) }
            try handle.seek(toOffset: UInt64(max(0, size - count)))
            let tail = [UInt8](try handle.read(upToCount: count) ?? Data())
            return (size, head, tail)
        } catch {
            throw .unreadableFile(path: url.path, reason: SystemCallError("read", describing: error).reason)
        }
    }

    /// Up to `count` bytes from `offset`.
    static func read(_ url: URL, offset: Int, count: Int) throws(SessionHistoryError) -> [UInt8] {
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(max(0, offset)))
            return [UInt8](try handle.read(upToCount: count) ?? Data())
        } catch {
            throw .unreadableFile(path: url.path, reason: SystemCallError("read", describing: error).reason)
        }
    }

    /// The file's modification time in whole seconds since 1970 (as `stat -c %Y` prints it).
    static func modificationTime(_ url: URL) throws(SessionHistoryError) -> Int {
        do {
            let date = try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date
            return Int((date?.timeIntervalSince1970 ?? 0).rounded(.down))
        } catch {
            throw .unreadableFile(path: url.path, reason: SystemCallError("read", describing: error).reason)
        }
    }

    /// The entries of a folder (names only, sorted), empty when it does not exist.
    static func entries(of folder: URL) throws(SessionHistoryError) -> [String] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else { return [] }
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        } catch {
            throw .unreadableFolder(path: folder.path, reason: SystemCallError("read", describing: error).reason)
        }
    }
}
