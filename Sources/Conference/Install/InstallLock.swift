import Foundation
import Synchronization

/// The cross-process lock on the Conference folder's files: held (an exclusive `flock(2)` on
/// `install.lock`) by an install for its whole run, and by whoever removes what interrupted
/// installs left, for as long as that takes. An install moves its file into `databases/` before
/// it records it, so nothing may delete a file there, or in `incoming/`, without this lock. The
/// lock goes with the process: a killed install leaves nothing to unlock.
///
/// An install also holds `installer.lock`, which nothing else takes: a second install is then
/// told at once that one is running (`busy`), while an install that meets a tidy-up waits the
/// moment it takes instead of failing.
final class InstallLock: Sendable {
    private let descriptors: Mutex<[Int32]>

    /// The lock on the folder's files.
    static let fileName = "install.lock"
    /// The lock only installs take.
    static let installerFileName = "installer.lock"

    private init(descriptors: [Int32]) {
        self.descriptors = Mutex(descriptors)
    }

    /// Takes the lock for an install: fails at once with `busy` when another install holds it,
    /// and waits while a tidy-up does.
    static func acquire(in folder: URL) async throws(ConferenceError) -> InstallLock {
        let installer = try openLockFile(folder.appendingPathComponent(installerFileName))
        guard flock(installer, LOCK_EX | LOCK_NB) == 0 else {
            close(installer)
            throw .busy
        }
        let files: Int32
        do {
            files = try openLockFile(folder.appendingPathComponent(fileName))
        } catch {
            close(installer)
            throw error
        }
        // A tidy-up holds it for a moment; waiting blocks a thread, so not one of the cooperative pool's.
        let taken = (try? await runBlocking { flock(files, LOCK_EX) == 0 }) ?? false
        let lock = InstallLock(descriptors: [files, installer])
        guard taken else {
            lock.release()
            throw .fileSystem("cannot lock \(folder.appendingPathComponent(fileName).path)")
        }
        return lock
    }

    /// Takes the lock for a tidy-up if nothing holds it; nil at once when an install (or another
    /// tidy-up) does, so a reader never waits for an install.
    static func tryAcquire(in folder: URL) -> InstallLock? {
        guard let files = try? openLockFile(folder.appendingPathComponent(fileName)) else { return nil }
        guard flock(files, LOCK_EX | LOCK_NB) == 0 else {
            close(files)
            return nil
        }
        return InstallLock(descriptors: [files])
    }

    /// Lets go of the lock (also done when the lock is released from memory).
    func release() {
        let held = descriptors.withLock { descriptors in
            defer { descriptors = [] }
            return descriptors
        }
        for descriptor in held {
            flock(descriptor, LOCK_UN)
            close(descriptor)
        }
    }

    deinit {
        release()
    }

    private static func openLockFile(_ file: URL) throws(ConferenceError) -> Int32 {
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .fileSystem("cannot create \(file.path): \(String(cString: strerror(errno)))") }
        return descriptor
    }
}
