import Foundation

/// Converts values between units exactly: through the category's base unit, in fractions.
public enum ConversionEngine {
    /// Converts `value` from one unit to another; data units follow `convention`.
    ///
    /// Throws for unknown ids, units of different categories, a negative value where the
    /// category forbids it, a temperature below absolute zero, or a result out of `Decimal` range.
    public static func convert(
        _ value: Decimal, from: UnitID, to: UnitID, convention: DataConvention = .standard
    ) throws(ConverterError) -> ExactValue {
        guard let exact = Rational(value) else { throw .invalidNumber(value.description) }
        return try convert(exact, from: from, to: to, convention: convention)
    }

    /// Converts an earlier exact result further, so chains (and round trips) stay exact.
    public static func convert(
        _ value: ExactValue, from: UnitID, to: UnitID, convention: DataConvention = .standard
    ) throws(ConverterError) -> ExactValue {
        try convert(value.rational, from: from, to: to, convention: convention)
    }

    /// The exact conversion every public entry point shares.
    static func convert(
        _ value: Rational, from: UnitID, to: UnitID, convention: DataConvention
    ) throws(ConverterError) -> ExactValue {
        let source = try definition(from, convention: convention)
        let target = try definition(to, convention: convention)
        guard source.category == target.category else {
            throw .incompatibleUnits(from: source.category, to: target.category)
        }
        guard !value.isNegative || source.category.allowsNegative else {
            throw .negativeNotAllowed(source.category)
        }
        let base = (value + source.offset) * source.scale
        // Base units of every category are non-negative, so only 0 K can be undercut.
        guard !base.isNegative else {
            let format = NumberFormat.display
            throw .belowAbsoluteZero(
                value: format.string(for: value.rounded(significantDigits: format.significantDigits))
                    + " " + source.symbol,
                minimum: format.string(for: (-source.offset).rounded(significantDigits: format.significantDigits))
                    + " " + source.symbol)
        }
        return try ExactValue(base / target.scale - target.offset)
    }

    private static func definition(_ id: UnitID, convention: DataConvention) throws(ConverterError) -> UnitDefinition {
        guard let definition = UnitCatalog.definition(for: id, convention: convention) else {
            throw .unknownUnit(id.rawValue, suggestions: UnitCatalog.suggestions(for: id.rawValue))
        }
        return definition
    }
}
