/// An arbitrary-precision unsigned integer with just the arithmetic exact conversions need.
///
/// Unit factors multiply into numbers far beyond 128 bits (an electronvolt is 1.602176634e-19 J,
/// and inputs may carry 15 digits), so fixed-width integers would need an overflow fallback;
/// a small bignum keeps every conversion exact with one code path.
struct BigUInt: Hashable, Comparable, Sendable {
    /// Little-endian 64-bit limbs without trailing zero limbs, so equal values have equal storage.
    private(set) var limbs: [UInt64]

    /// Zero.
    init() {
        limbs = []
    }

    /// The value of a machine integer.
    init(_ value: UInt64) {
        limbs = value == 0 ? [] : [value]
    }

    private init(limbs: [UInt64]) {
        self.limbs = limbs
        normalize()
    }

    /// The digits of a run of ASCII decimal digits; nil if any character is not a digit.
    init?(decimalDigits text: some StringProtocol) {
        var result = BigUInt()
        var chunk: UInt64 = 0
        var chunkLength = 0
        for character in text.utf8 {
            guard character >= UInt8(ascii: "0"), character <= UInt8(ascii: "9") else { return nil }
            chunk = chunk * 10 + UInt64(character - UInt8(ascii: "0"))
            chunkLength += 1
            // 10^19 still fits in a UInt64, so digits are folded in 19 at a time.
            if chunkLength == 19 {
                result = result.multiplied(by: Self.tenToThe19).adding(chunk)
                chunk = 0
                chunkLength = 0
            }
        }
        if chunkLength > 0 {
            result = result.multiplied(by: Self.smallPowerOfTen(chunkLength)).adding(chunk)
        }
        self = result
    }

    private static let tenToThe19: UInt64 = 10_000_000_000_000_000_000

    private static func smallPowerOfTen(_ exponent: Int) -> UInt64 {
        var result: UInt64 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }

    /// 10 raised to a non-negative power.
    static func powerOfTen(_ exponent: Int) -> BigUInt {
        var result = BigUInt(1)
        var remaining = max(exponent, 0)
        while remaining >= 19 {
            result = result.multiplied(by: tenToThe19)
            remaining -= 19
        }
        return result.multiplied(by: smallPowerOfTen(remaining))
    }

    private mutating func normalize() {
        while limbs.last == 0 { limbs.removeLast() }
    }

    /// Whether the value is zero.
    var isZero: Bool { limbs.isEmpty }

    /// The number of bits up to and including the highest set bit.
    var bitWidth: Int {
        guard let last = limbs.last else { return 0 }
        return limbs.count * 64 - last.leadingZeroBitCount
    }

    private var trailingZeroBitCount: Int {
        for (index, limb) in limbs.enumerated() where limb != 0 {
            return index * 64 + limb.trailingZeroBitCount
        }
        return 0
    }

    private func bit(_ index: Int) -> Bool {
        let limb = index / 64
        guard limb < limbs.count else { return false }
        return limbs[limb] & (1 << UInt64(index % 64)) != 0
    }

    static func < (lhs: BigUInt, rhs: BigUInt) -> Bool {
        if lhs.limbs.count != rhs.limbs.count { return lhs.limbs.count < rhs.limbs.count }
        for index in stride(from: lhs.limbs.count - 1, through: 0, by: -1)
        where lhs.limbs[index] != rhs.limbs[index] {
            return lhs.limbs[index] < rhs.limbs[index]
        }
        return false
    }

    static func + (lhs: BigUInt, rhs: BigUInt) -> BigUInt {
        var result = [UInt64](repeating: 0, count: max(lhs.limbs.count, rhs.limbs.count) + 1)
        var carry: UInt64 = 0
        for index in 0..<(result.count - 1) {
            let left = index < lhs.limbs.count ? lhs.limbs[index] : 0
            let right = index < rhs.limbs.count ? rhs.limbs[index] : 0
            let (partial, overflow1) = left.addingReportingOverflow(right)
            let (sum, overflow2) = partial.addingReportingOverflow(carry)
            result[index] = sum
            carry = (overflow1 ? 1 : 0) + (overflow2 ? 1 : 0)
        }
        result[result.count - 1] = carry
        return BigUInt(limbs: result)
    }

    /// The difference, or zero when `rhs` is larger (callers compare first; this never traps).
    static func - (lhs: BigUInt, rhs: BigUInt) -> BigUInt {
        guard rhs < lhs else { return BigUInt() }
        var result = lhs.limbs
        var borrow: UInt64 = 0
        for index in 0..<result.count {
            let right = index < rhs.limbs.count ? rhs.limbs[index] : 0
            let (partial, overflow1) = result[index].subtractingReportingOverflow(right)
            let (difference, overflow2) = partial.subtractingReportingOverflow(borrow)
            result[index] = difference
            borrow = (overflow1 ? 1 : 0) + (overflow2 ? 1 : 0)
        }
        return BigUInt(limbs: result)
    }

    static func * (lhs: BigUInt, rhs: BigUInt) -> BigUInt {
        guard !lhs.isZero, !rhs.isZero else { return BigUInt() }
        var result = [UInt64](repeating: 0, count: lhs.limbs.count + rhs.limbs.count)
        for (i, left) in lhs.limbs.enumerated() {
            var carry: UInt64 = 0
            for (j, right) in rhs.limbs.enumerated() {
                let product = left.multipliedFullWidth(by: right)
                let (low1, overflow1) = product.low.addingReportingOverflow(result[i + j])
                let (low2, overflow2) = low1.addingReportingOverflow(carry)
                result[i + j] = low2
                // high <= 2^64 - 2, so adding the two carry bits cannot overflow.
                carry = product.high + (overflow1 ? 1 : 0) + (overflow2 ? 1 : 0)
            }
            result[i + rhs.limbs.count] = carry
        }
        return BigUInt(limbs: result)
    }

    /// The product with a machine integer.
    func multiplied(by factor: UInt64) -> BigUInt {
        self * BigUInt(factor)
    }

    /// The sum with a machine integer.
    func adding(_ addend: UInt64) -> BigUInt {
        self + BigUInt(addend)
    }

    private func shiftedRight(_ count: Int) -> BigUInt {
        let limbShift = count / 64
        let bitShift = UInt64(count % 64)
        guard limbShift < limbs.count else { return BigUInt() }
        var result = [UInt64](repeating: 0, count: limbs.count - limbShift)
        for index in 0..<result.count {
            let low = limbs[index + limbShift] >> bitShift
            let nextIndex = index + limbShift + 1
            let high = bitShift == 0 || nextIndex >= limbs.count ? 0 : limbs[nextIndex] << (64 - bitShift)
            result[index] = low | high
        }
        return BigUInt(limbs: result)
    }

    private func shiftedLeft(_ count: Int) -> BigUInt {
        guard !isZero else { return self }
        let limbShift = count / 64
        let bitShift = UInt64(count % 64)
        var result = [UInt64](repeating: 0, count: limbs.count + limbShift + 1)
        for (index, limb) in limbs.enumerated() {
            result[index + limbShift] |= limb << bitShift
            if bitShift != 0 {
                result[index + limbShift + 1] |= limb >> (64 - bitShift)
            }
        }
        return BigUInt(limbs: result)
    }

    /// Quotient and remainder; dividing by zero yields (0, self) rather than trapping.
    func quotientAndRemainder(dividingBy divisor: BigUInt) -> (quotient: BigUInt, remainder: BigUInt) {
        guard !divisor.isZero else { return (BigUInt(), self) }
        if self < divisor { return (BigUInt(), self) }
        if divisor.limbs.count == 1 {
            let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor.limbs[0])
            return (quotient, BigUInt(remainder))
        }
        // Shift-and-subtract long division over a few hundred bits at most: simple, and done in
        // place on fixed buffers so no iteration allocates.
        let width = divisor.limbs.count + 1
        let divisorLimbs = divisor.limbs + [0]
        var quotient = [UInt64](repeating: 0, count: limbs.count)
        var remainder = [UInt64](repeating: 0, count: width)
        for index in stride(from: bitWidth - 1, through: 0, by: -1) {
            var carry: UInt64 = bit(index) ? 1 : 0
            for position in 0..<width {
                let limb = remainder[position]
                remainder[position] = limb << 1 | carry
                carry = limb >> 63
            }
            if !Self.isLess(remainder, than: divisorLimbs) {
                Self.subtract(divisorLimbs, from: &remainder)
                quotient[index / 64] |= 1 << UInt64(index % 64)
            }
        }
        return (BigUInt(limbs: quotient), BigUInt(limbs: remainder))
    }

    /// Compares equally long limb arrays.
    private static func isLess(_ lhs: [UInt64], than rhs: [UInt64]) -> Bool {
        for position in stride(from: lhs.count - 1, through: 0, by: -1) where lhs[position] != rhs[position] {
            return lhs[position] < rhs[position]
        }
        return false
    }

    /// Subtracts an equally long, not larger limb array in place.
    private static func subtract(_ rhs: [UInt64], from lhs: inout [UInt64]) {
        var borrow: UInt64 = 0
        for position in 0..<lhs.count {
            let (partial, overflow1) = lhs[position].subtractingReportingOverflow(rhs[position])
            let (difference, overflow2) = partial.subtractingReportingOverflow(borrow)
            lhs[position] = difference
            borrow = (overflow1 ? 1 : 0) + (overflow2 ? 1 : 0)
        }
    }

    /// Quotient and remainder by a non-zero machine integer.
    private func quotientAndRemainder(dividingBy divisor: UInt64) -> (quotient: BigUInt, remainder: UInt64) {
        var quotient = [UInt64](repeating: 0, count: limbs.count)
        var remainder: UInt64 = 0
        for index in stride(from: limbs.count - 1, through: 0, by: -1) {
            // remainder < divisor, so the two-limb dividend's quotient fits in one limb.
            let (digit, rest) = divisor.dividingFullWidth((high: remainder, low: limbs[index]))
            quotient[index] = digit
            remainder = rest
        }
        return (BigUInt(limbs: quotient), remainder)
    }

    /// The greatest common divisor (binary GCD: only shifts and subtractions).
    static func greatestCommonDivisor(_ first: BigUInt, _ second: BigUInt) -> BigUInt {
        if first.isZero { return second }
        if second.isZero { return first }
        if first.limbs.count == 1, second.limbs.count == 1 {
            return BigUInt(greatestCommonDivisor(first.limbs[0], second.limbs[0]))
        }
        let commonShift = min(first.trailingZeroBitCount, second.trailingZeroBitCount)
        var u = first.shiftedRight(first.trailingZeroBitCount)
        var v = second
        repeat {
            v = v.shiftedRight(v.trailingZeroBitCount)
            if v < u { swap(&u, &v) }
            v = v - u
        } while !v.isZero
        return u.shiftedLeft(commonShift)
    }

    /// Binary GCD on machine words: most unit fractions are that small.
    private static func greatestCommonDivisor(_ first: UInt64, _ second: UInt64) -> UInt64 {
        let commonShift = min(first.trailingZeroBitCount, second.trailingZeroBitCount)
        var u = first >> UInt64(first.trailingZeroBitCount)
        var v = second
        repeat {
            v >>= UInt64(v.trailingZeroBitCount)
            if v < u { swap(&u, &v) }
            v -= u
        } while v != 0
        return u << UInt64(commonShift)
    }

    /// The value in base 10 without leading zeros ("0" for zero).
    var decimalString: String {
        guard !isZero else { return "0" }
        var chunks: [UInt64] = []
        var rest = self
        while !rest.isZero {
            let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: Self.tenToThe19)
            chunks.append(remainder)
            rest = quotient
        }
        var text = String(chunks.removeLast())
        for chunk in chunks.reversed() {
            let digits = String(chunk)
            text += String(repeating: "0", count: 19 - digits.count) + digits
        }
        return text
    }
}
