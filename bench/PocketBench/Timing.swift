import Foundation

/// Durations of repeated runs of one operation, summarised as percentiles.
struct Samples {
    private(set) var milliseconds: [Double] = []

    /// Times `body` once and keeps the duration.
    mutating func time<T>(_ body: () async throws -> T) async rethrows -> T {
        let start = ContinuousClock.now
        let value = try await body()
        milliseconds.append(Self.milliseconds(ContinuousClock.now - start))
        return value
    }

    /// Times a synchronous `body` once and keeps the duration.
    mutating func measure<T>(_ body: () throws -> T) rethrows -> T {
        let start = ContinuousClock.now
        let value = try body()
        milliseconds.append(Self.milliseconds(ContinuousClock.now - start))
        return value
    }

    /// The nearest-rank percentile (`fraction` 0.5 for p50, 0.99 for p99).
    func percentile(_ fraction: Double) -> Double {
        guard !milliseconds.isEmpty else { return .nan }
        let sorted = milliseconds.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    var count: Int { milliseconds.count }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

/// A fixed-width text table, the format of bench/results/*.txt.
struct TextTable {
    let headers: [String]
    private(set) var rows: [[String]] = []

    init(_ headers: String...) {
        self.headers = headers
    }

    init(headers: [String]) {
        self.headers = headers
    }

    mutating func add(_ cells: String...) {
        rows.append(cells)
    }

    mutating func add(row cells: [String]) {
        rows.append(cells)
    }

    /// The first column left-aligned, the others right-aligned.
    var text: String {
        let all = [headers] + rows
        let widths = headers.indices.map { column in all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let padding = String(repeating: " ", count: max(0, widths[index] - cell.count))
                return index == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        return ([line(headers), widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")] + rows.map(line))
            .joined(separator: "\n")
    }
}

/// "12.345" milliseconds with three decimals (sub-millisecond queries stay readable).
func formatMilliseconds(_ value: Double) -> String {
    String(format: "%.3f", value)
}

/// The machine, for the results header: cores and CPU model.
func machineDescription() -> String {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }
        .flatMap { $0.split(separator: ":", maxSplits: 1).last }
        .map { $0.trimmingCharacters(in: .whitespaces) } ?? "unknown CPU"
    let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "").split(separator: " ").prefix(3).joined(separator: " ")
    return "\(cores) cores, \(model)" + (load.isEmpty ? "" : "; load average at the end \(load)")
}

/// A benchmark that cannot run as asked, with the reason in words.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
}

/// "release build", or a warning that the figures are from a debug build and not comparable.
var buildKind: String {
    #if DEBUG
    return "DEBUG build: not comparable, use `swift build -c release`"
    #else
    return "release build"
    #endif
}
