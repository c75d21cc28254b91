import Foundation
import Glibc

extension FileStore {
    /// The lock file in a data directory: an open store holds an exclusive `flock` on it.
    static func lockPath(_ directory: String) -> String {
        (directory as NSString).appendingPathComponent("store.lock")
    }

    /// Takes the exclusive lock that keeps a second store (or a repair) out of `path`, creating the lock file when
    /// missing. Returns its descriptor; throws a `StoreOpenError` with `directoryInUse` set when another process holds
    /// the lock.
    static func lockDirectory(_ path: String, io: FileIO) throws -> Int32 {
        let lockPath = lockPath(path)
        let fd: Int32
        do {
            fd = try io.open(lockPath, O_RDWR | O_CREAT)
        } catch {
            throw StoreOpenError("the data directory \(path) is not writable: \(error)")
        }
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            Glibc.close(fd)
            if code == EWOULDBLOCK {
                var error = StoreOpenError("the data directory \(path) is in use by another store (\(lockPath) is locked)")
                error.directoryInUse = true
                throw error
            }
            throw StoreOpenError("cannot lock \(lockPath): \(String(cString: strerror(code)))")
        }
        return fd
    }

    /// Releases the lock `lockDirectory` took and closes its descriptor. Unlocked before it is closed: a child process
    /// being spawned by another thread holds a copy of every descriptor until it execs, and with it the lock, which
    /// closing alone would leave held for that long.
    static func unlockDirectory(_ fd: Int32) {
        flock(fd, LOCK_UN)
        Glibc.close(fd)
    }

    /// Whether another process holds the lock of `path`; only reads (a missing lock file means no).
    static func isLocked(_ path: String, io: FileIO) -> Bool {
        guard let fd = try? io.open(lockPath(path), O_RDONLY) else { return false }
        defer { Glibc.close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) != 0 { return errno == EWOULDBLOCK }
        flock(fd, LOCK_UN)
        return false
    }
}
