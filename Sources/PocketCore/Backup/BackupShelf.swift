import Foundation

/// The folder backups are kept in: how archives are named, which exist, and which the daily
/// schedule keeps (the last 7 daily and 4 weekly).
public struct BackupShelf: Sendable, Equatable {
    /// One archive on the shelf.
    public struct Archive: Sendable, Equatable {
        /// Where it is.
        public var url: URL
        /// When it was made (from its name, which Pocket chose).
        public var date: Date
        /// Its size in bytes.
        public var size: Int64
    }

    /// The folder.
    public let folder: URL

    /// Names start with this and end in `.zip`, the time in between (UTC), so they sort by age.
    static let prefix = "pocket-backup-"

    /// A shelf in `folder`.
    public init(folder: URL) {
        self.folder = folder.standardizedFileURL
    }

    /// Every archive Pocket made here, newest first; other files are not Pocket's and are ignored.
    public func archives() -> [Archive] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.compactMap { name -> Archive? in
            guard let date = Self.date(fromName: name) else { return nil }
            let url = folder.appendingPathComponent(name)
            guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value else { return nil }
            return Archive(url: url, date: date, size: size)
        }.sorted { $0.date != $1.date ? $0.date > $1.date : $0.url.lastPathComponent > $1.url.lastPathComponent }
    }

    /// The newest archive, if any.
    public func latest() -> Archive? {
        archives().first
    }

    /// A name for an archive made at `date` that no file has yet.
    func newArchiveURL(at date: Date) -> URL {
        let stamp = Self.stamp(date)
        var url = folder.appendingPathComponent("\(Self.prefix)\(stamp).zip")
        var counter = 2
        while FileManager.default.fileExists(atPath: url.path) {
            url = folder.appendingPathComponent("\(Self.prefix)\(stamp)-\(counter).zip")
            counter += 1
        }
        return url
    }

    /// Whether `name` is one Pocket gives an archive.
    static func isArchiveName(_ name: String) -> Bool {
        date(fromName: name) != nil
    }

    /// Removes the archives `retained(_:)` does not keep and returns them.
    @discardableResult
    public func prune(daily: Int = 7, weekly: Int = 4, calendar: Calendar = .current) -> [Archive] {
        let all = archives()
        let kept = Self.retained(all, daily: daily, weekly: weekly, calendar: calendar)
        var removed: [Archive] = []
        for archive in all where !kept.contains(archive.url) {
            if (try? FileManager.default.removeItem(at: archive.url)) != nil { removed.append(archive) }
        }
        return removed
    }

    /// The archives to keep: the newest of each of the last `daily` days that have one, and the
    /// newest of each of the last `weekly` weeks that have one (a week's newest is often a day's
    /// too). Days and weeks are the calendar's, so "daily" follows the household's clock.
    public static func retained(_ archives: [Archive], daily: Int, weekly: Int, calendar: Calendar) -> Set<URL> {
        let newestFirst = archives.sorted { $0.date > $1.date }
        var kept = Set<URL>()
        func keepNewest(per key: (Date) -> DateComponents, count: Int) {
            var seen = Set<DateComponents>()
            for archive in newestFirst {
                let period = key(archive.date)
                guard !seen.contains(period) else { continue }
                guard seen.count < count else { break }
                seen.insert(period)
                kept.insert(archive.url)
            }
        }
        keepNewest(per: { calendar.dateComponents([.year, .month, .day], from: $0) }, count: daily)
        keepNewest(per: { calendar.dateComponents([.yearForWeekOfYear, .weekOfYear], from: $0) }, count: weekly)
        return kept
    }
}

// MARK: - Names

private extension BackupShelf {
    static func stamp(_ date: Date) -> String {
        let parts = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return "\(parts.year ?? 0)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour))\(two(parts.minute))\(two(parts.second))Z"
    }

    /// The time in a name `stamp` wrote (with or without a `-N` suffix), else nil.
    static func date(fromName name: String) -> Date? {
        guard name.hasPrefix(prefix), name.hasSuffix(".zip") else { return nil }
        let stamp = name.dropFirst(prefix.count).dropLast(4).prefix(18)
        let digits = stamp.filter(\.isNumber)
        guard stamp.count == 18, digits.count == 14, stamp.hasSuffix("Z") else { return nil }
        let numbers = [0...3, 4...5, 6...7, 8...9, 10...11, 12...13].map { range -> Int in
            let start = digits.index(digits.startIndex, offsetBy: range.lowerBound), end = digits.index(digits.startIndex, offsetBy: range.upperBound)
            return Int(digits[start...end]) ?? 0
        }
        return utc.date(from: DateComponents(year: numbers[0], month: numbers[1], day: numbers[2], hour: numbers[3], minute: numbers[4], second: numbers[5]))
    }

    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }
}
