// Base unit: the second.
extension UnitCatalog {
    static let timeUnits: [UnitDefinition] = [
        UnitDefinition("millisecond", .time, name: "Millisecond", symbol: "ms", scale: "0.001", aliases: ["msec"]),
        UnitDefinition("second", .time, name: "Second", symbol: "s", scale: 1, aliases: ["sec", "secs"]),
        UnitDefinition("minute", .time, name: "Minute", symbol: "min", scale: 60, aliases: ["mins"]),
        UnitDefinition("hour", .time, name: "Hour", symbol: "h", scale: 3600, aliases: ["hr", "hrs"]),
        // Days of 86,400 s (no leap seconds).
        UnitDefinition("day", .time, name: "Day", symbol: "d", scale: 86400),
        UnitDefinition("week", .time, name: "Week", symbol: "wk", scale: 604_800, aliases: ["wks"]),
        // Julian year = 365.25 days (IAU); calendar years vary, so one fixed, standard length.
        UnitDefinition(
            "year", .time, name: "Year", symbol: "yr", scale: 31_557_600, aliases: ["y", "yrs", "julian year"],
            note: "Julian year: 365.25 days"),
    ]
}
