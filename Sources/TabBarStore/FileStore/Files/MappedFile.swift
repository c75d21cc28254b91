import Glibc

/// A whole file mapped read-only, for replaying it without a copy on the heap. Pages already read can be given
/// back (`discard(before:)`), so replaying a large journal does not hold the whole file in memory at once.
final class MappedFile {
    /// The file's bytes; empty for an empty file.
    let bytes: UnsafeRawBufferPointer
    private var discarded = 0
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Maps the file open on `fd` (which stays owned by the caller).
    init(fd: Int32, path: String) throws {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SystemError.current("fstat", path) }
        let size = Int(info.st_size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw SystemError.current("mmap", path)
        }
        _ = madvise(address, size, MADV_SEQUENTIAL)
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    deinit {
        if let base = bytes.baseAddress {
            munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        }
    }

    /// Lets the kernel drop the pages wholly before `offset`; reading them again reads the file again.
    func discard(before offset: Int) {
        guard let base = bytes.baseAddress else { return }
        let end = offset / Self.pageSize * Self.pageSize
        guard end - discarded >= 8 << 20 else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base + discarded), end - discarded, MADV_DONTNEED)
        discarded = end
    }
}
