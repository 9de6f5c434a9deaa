/// Works out each file's first and last bytes from what the listing script sent and what the
/// cache holds, and which byte ranges are still to be read.
enum ListingWindows {
    /// Fills `file.window` from the script's output: new files from `heads`/`tails`, grown files
    /// from their cached bytes plus the appended `ranges`. Unchanged files keep their cache entry.
    static func resolve(_ file: inout ListedFile, in folder: ListedFolder, cache: CacheContents, window: Int) {
        let stat = file.stat
        if let head = folder.heads[stat.path] {
            let tail = stat.size > window ? folder.tails[stat.path] : head
            guard let tail else { return }
            let size = head.isExact && tail.isExact ? stat.size : max(stat.size, head.bytes.count)
            file.take(FileWindow(size: size, head: head.bytes, tail: tail.bytes), stable: head.isExact && tail.isExact)
        } else if let ranges = folder.ranges[stat.path] {
            guard let old = cache.entries[file.path], old.identity == stat.identity, old.size < stat.size,
                let oldWindow = cache.window(for: old)
            else { return }
            var known = SparseBytes()
            known.add(oldWindow.head, at: 0)
            known.add(oldWindow.tail, at: old.size - oldWindow.tail.count)
            for range in ranges { known.add(range.bytes, at: range.offset) }
            let headLength = min(stat.size, max(window, oldWindow.head.count))
            guard let head = known.bytes(0, headLength),
                let tail = known.suffix(endingAt: stat.size, limit: max(window, oldWindow.tail.count), minimum: window)
            else { return }
            file.take(FileWindow(size: stat.size, head: head, tail: tail), stable: ranges.allSatisfy(\.isExact))
        } else if let old = cache.entries[file.path], old.identity == stat.identity, old.size == stat.size, old.mtime == stat.mtime {
            file.cached = old
            file.leafSummaries = old.leafSummaries
            file.parentSessionId = old.parentSessionId
        }
    }

    /// The ranges that give a file without usable bytes its first and last `window` bytes.
    static func initialRanges(for file: ListedFile, window: Int) -> [RemoteByteRange] {
        let size = file.stat.size
        var ranges = [RemoteByteRange(path: file.path, offset: 0, length: min(window, size))]
        if size > window { ranges.append(RemoteByteRange(path: file.path, offset: size - window, length: window)) }
        return ranges
    }

    /// Takes the bytes read by ``initialRanges(for:window:)``.
    static func takeInitial(_ contents: ArraySlice<[UInt8]>, into file: inout ListedFile, window: Int) {
        let head = contents[contents.startIndex]
        let tail = contents.count > 1 ? contents[contents.startIndex + 1] : head
        let expectedTail = file.stat.size > window ? window : file.stat.size
        file.take(
            FileWindow(size: file.stat.size, head: head, tail: tail),
            stable: head.count == min(window, file.stat.size) && tail.count == expectedTail)
    }
}
