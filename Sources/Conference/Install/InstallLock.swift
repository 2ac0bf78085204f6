import Foundation

/// An exclusive `flock(2)` on `install.lock` in the Conference folder, so two Pocket processes
/// (the server and `pocket conference update`, say) never install at the same time. The lock
/// goes with the process: a killed install leaves nothing to clean up.
final class InstallLock {
    private var descriptor: Int32

    /// The lock file's name.
    static let fileName = "install.lock"

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the lock, or fails at once with `busy` when another process holds it.
    static func acquire(in folder: URL) throws(ConferenceError) -> InstallLock {
        let path = folder.appendingPathComponent(fileName).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .fileSystem("cannot create \(path)") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            throw .busy
        }
        return InstallLock(descriptor: descriptor)
    }

    /// Lets go of the lock (also done when the lock is released from memory).
    func release() {
        guard descriptor >= 0 else { return }
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }

    deinit {
        release()
    }
}
