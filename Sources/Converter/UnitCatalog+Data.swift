// Base unit: the byte (an octet, 8 bits).
//
// "kilobyte" keeps one id across conventions so a picker selection survives a convention switch;
// its factor follows the convention. The IEC units have ids of their own because "KiB" always
// means 1024 bytes, whatever convention is chosen.
extension UnitCatalog {
    /// Data units offered for a convention, smallest first.
    static func dataUnits(_ convention: DataConvention) -> [UnitDefinition] {
        switch convention {
        case .binary: binaryDataUnits
        case .decimal: decimalDataUnits
        case .iec: iecDataUnits
        }
    }

    // IEC 80000-13: 1 byte = 8 bits.
    private static let bit = UnitDefinition(
        "bit", .data, name: "Bit", symbol: "bit", scale: "0.125", aliases: ["bits"])
    private static let byte = UnitDefinition(
        "byte", .data, name: "Byte", symbol: "B", scale: 1, aliases: ["octet", "octets"])

    private static let binaryDataUnits: [UnitDefinition] = [
        bit, byte,
        // 2^10, 2^20, 2^30, 2^40 bytes: JEDEC usage, the assignment's default.
        UnitDefinition(
            "kilobyte", .data, name: "Kilobyte", symbol: "KB", scale: 1024,
            aliases: ["kB", "kbyte", "kbytes"], note: "1 KB = 1024 bytes (binary)"),
        UnitDefinition(
            "megabyte", .data, name: "Megabyte", symbol: "MB", scale: 1_048_576,
            aliases: ["mbyte", "mbytes"], note: "1 MB = 1024 KB (binary)"),
        UnitDefinition(
            "gigabyte", .data, name: "Gigabyte", symbol: "GB", scale: 1_073_741_824,
            aliases: ["gbyte", "gbytes"], note: "1 GB = 1024 MB (binary)"),
        UnitDefinition(
            "terabyte", .data, name: "Terabyte", symbol: "TB", scale: 1_099_511_627_776,
            aliases: ["tbyte", "tbytes"], note: "1 TB = 1024 GB (binary)"),
    ]

    /// Also what "kilobyte" etc. mean under the IEC convention, where SI prefixes are decimal.
    private static let decimalDataUnits: [UnitDefinition] = [
        bit, byte,
        // SI prefixes: 10^3, 10^6, 10^9, 10^12 bytes.
        UnitDefinition(
            "kilobyte", .data, name: "Kilobyte", symbol: "kB", scale: 1000, note: "1 kB = 1000 bytes (decimal)"),
        UnitDefinition(
            "megabyte", .data, name: "Megabyte", symbol: "MB", scale: 1_000_000, note: "1 MB = 1000 kB (decimal)"),
        UnitDefinition(
            "gigabyte", .data, name: "Gigabyte", symbol: "GB", scale: 1_000_000_000,
            note: "1 GB = 1000 MB (decimal)"),
        UnitDefinition(
            "terabyte", .data, name: "Terabyte", symbol: "TB", scale: 1_000_000_000_000,
            note: "1 TB = 1000 GB (decimal)"),
    ]

    private static let iecDataUnits: [UnitDefinition] = [
        bit, byte,
        // IEC 60027-2 binary prefixes: 2^10, 2^20, 2^30, 2^40 bytes.
        UnitDefinition("kibibyte", .data, name: "Kibibyte", symbol: "KiB", scale: 1024),
        UnitDefinition("mebibyte", .data, name: "Mebibyte", symbol: "MiB", scale: 1_048_576),
        UnitDefinition("gibibyte", .data, name: "Gibibyte", symbol: "GiB", scale: 1_073_741_824),
        UnitDefinition("tebibyte", .data, name: "Tebibyte", symbol: "TiB", scale: 1_099_511_627_776),
    ]

    /// Where to look for a data id the chosen convention does not list: IEC ids keep their binary
    /// meaning everywhere, and "kilobyte" under IEC means 1000 bytes, as IEC intends.
    static func dataDefinition(_ id: UnitID, convention: DataConvention) -> UnitDefinition? {
        for list in [dataUnits(convention), iecDataUnits, decimalDataUnits] {
            if let definition = list.first(where: { $0.id == id }) { return definition }
        }
        return nil
    }
}
