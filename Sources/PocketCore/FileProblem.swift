import Foundation
import GRDB

/// Why a file could not be read or written, in words a person can act on: the one place where an
/// error from the system, SQLite, Foundation or a zip library becomes a short reason. A full disk
/// is always called that, with the folder whose disk it is, however the failing layer put it
/// (SQLite's "database or disk is full" or a bare "not an error" from its backup, Foundation's
/// out-of-space code, a zip library's "DataError error 1").
public enum FileProblem {
    /// Below this many free bytes a write that failed for a reason no layer named is put down to a full disk.
    static let nearlyFull: Int64 = 1 << 20

    /// An error number in words; `ENOSPC` and `EDQUOT` say the disk holding `folder` is full.
    public static func describe(errno code: Int32, at folder: URL? = nil) -> String {
        switch code {
        case ENOSPC, EDQUOT: return diskFull(at: folder)
        default: return String(cString: strerror(code)).lowercased()
        }
    }

    /// Any error in words. A write to `folder` that failed while its disk has (almost) no room
    /// left is a full disk, whatever the error says.
    public static func describe(_ error: any Error, at folder: URL? = nil) -> String {
        if let code = errorNumber(error) { return describe(errno: code, at: folder) }
        if let error = error as? DatabaseError {
            if error.resultCode == .SQLITE_FULL || isNearlyFull(folder) { return diskFull(at: folder) }
            return error.message ?? "\(error.resultCode)"
        }
        if isNearlyFull(folder) { return diskFull(at: folder) }
        let nsError = error as NSError
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileWriteNoPermissionError { return "permission denied" }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileWriteFileExistsError { return "a file with that name is in the way" }
        return nsError.localizedDescription
    }

    /// "the disk holding … is full", or without a folder "the disk is full".
    public static func diskFull(at folder: URL?) -> String {
        guard let folder else { return "the disk is full" }
        return "the disk holding \(folder.path) is full"
    }

    /// Free bytes where `folder` is (the nearest folder of it that exists), nil when unknown.
    public static func availableBytes(at folder: URL) -> Int64? {
        var candidate = folder.standardizedFileURL
        var info = statvfs()
        while statvfs(candidate.path, &info) != 0 {
            guard candidate.path != "/" else { return nil }
            candidate.deleteLastPathComponent()
        }
        let (bytes, overflow) = UInt64(info.f_bavail).multipliedReportingOverflow(by: UInt64(info.f_frsize))
        return overflow || bytes > UInt64(Int64.max) ? Int64.max : Int64(bytes)
    }

    private static func isNearlyFull(_ folder: URL?) -> Bool {
        guard let folder, let free = availableBytes(at: folder) else { return false }
        return free < nearlyFull
    }

    /// The system error number inside `error`, when it carries one.
    private static func errorNumber(_ error: any Error) -> Int32? {
        if let error = error as? POSIXError { return error.code.rawValue }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return Int32(nsError.code) }
        if nsError.domain == NSCocoaErrorDomain, nsError.code == NSFileWriteOutOfSpaceError { return ENOSPC }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        return nil
    }
}
