import Foundation

/// A group of mutually convertible units: one segment of the converter's category control.
public enum UnitCategory: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    /// Bits and bytes, with a user-chosen meaning of "kilo" (see `DataConvention`).
    case data
    /// Absolute temperatures; the only affine (offset) conversions.
    case temperature
    /// Distances.
    case length
    /// Masses (weights in everyday speech).
    case mass
    /// Capacities, metric and US/imperial.
    case volume
    /// Surfaces.
    case area
    /// Speeds.
    case speed
    /// Durations.
    case time
    /// Energy and work.
    case energy
    /// Pressure and stress.
    case pressure

    /// The label for the category control, e.g. "Temperature".
    public var name: String {
        switch self {
        case .data: "Data"
        case .temperature: "Temperature"
        case .length: "Length"
        case .mass: "Mass"
        case .volume: "Volume"
        case .area: "Area"
        case .speed: "Speed"
        case .time: "Time"
        case .energy: "Energy"
        case .pressure: "Pressure"
        }
    }

    /// Whether a negative value means something: only temperatures (−40 °C) do; a negative
    /// length or file size is a typing mistake, so the keypad's ± key is refused elsewhere.
    public var allowsNegative: Bool {
        self == .temperature
    }

    /// The same as `name`.
    public var description: String { name }
}

/// What "kilo", "mega", … mean for data units.
public enum DataConvention: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    /// KB, MB, GB, TB meaning powers of 2^10, the assignment's "old-fashioned" default.
    case binary
    /// kB, MB, GB, TB meaning powers of 10^3 (SI prefixes, as disk makers use them).
    case decimal
    /// KiB, MiB, GiB, TiB (IEC 80000-13 names for powers of 2^10).
    case iec

    /// The convention used when nobody chose one.
    public static let standard: DataConvention = .binary

    /// A short label for a settings control.
    public var name: String {
        switch self {
        case .binary: "Binary (1 KB = 1024 B)"
        case .decimal: "Decimal (1 kB = 1000 B)"
        case .iec: "IEC (1 KiB = 1024 B)"
        }
    }

    /// The one-word label of a segmented control: "Binary", "Decimal", "IEC".
    public var shortName: String {
        switch self {
        case .binary: "Binary"
        case .decimal: "Decimal"
        case .iec: "IEC"
        }
    }

    /// The same as `name`.
    public var description: String { name }
}

extension DataConvention {
    /// What a kilo-unit is under this convention, worked out from the catalog: "1 KB = 1,024 B".
    /// The converter page and the catalog the browser converts with both show it.
    public var caption: String {
        let units = UnitCatalog.units(in: .data, convention: self)
        guard let kilo = units.first(where: { $0.id != "bit" && $0.id != "byte" }),
              let bytes = try? ConversionEngine.convert(Decimal(1), from: kilo.id, to: "byte", convention: self)
        else { return "" }
        return "1 \(kilo.symbol) = \(bytes.formatted(.display)) B"
    }
}
