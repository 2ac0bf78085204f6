#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's limit on open files (`RLIMIT_NOFILE`), which bounds connections and databases alike.
public enum FileLimit {
    /// Handles kept back from connections so the databases, their WAL files and the backup can
    /// always be opened: six stores at three handles each, a sci-core generation, backups,
    /// certificates and libraries, with room to spare.
    public static let reserve = 256

    /// Raises the soft limit to the hard one and returns the soft limit now in force. systemd's
    /// default soft limit is 1,024, which a few hundred idle sockets reach; the hard limit
    /// (524,288 by default, or the unit's `LimitNOFILE=`) is what Pocket may use.
    @discardableResult
    public static func raiseToHardLimit() -> Int {
        var limits = rlimit()
        guard getrlimit(resource, &limits) == 0 else { return 1024 }
        if limits.rlim_cur < limits.rlim_max {
            var raised = limits
            raised.rlim_cur = limits.rlim_max
            if setrlimit(resource, &raised) == 0 { limits = raised }
        }
        return count(limits.rlim_cur)
    }

    /// The soft limit now in force.
    public static var current: Int {
        var limits = rlimit()
        guard getrlimit(resource, &limits) == 0 else { return 1024 }
        return count(limits.rlim_cur)
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif

    /// Unlimited (all bits set) and anything beyond `Int` read as `Int.max`.
    private static func count(_ value: rlim_t) -> Int {
        value >= rlim_t(Int.max) ? Int.max : Int(value)
    }
}
