import Foundation

/// Reads the ISO-8601 timestamps of session files (`2025-11-17T11:23:23.498Z`).
///
/// `ISO8601DateFormatter` is slow and not `Sendable`; this reads the fixed layout by hand and
/// accepts optional fractional seconds and a `Z` or `±hh:mm` suffix.
public enum Timestamp {
    /// The date written in `text`, or `nil` when it is not in that layout.
    public static func parse(_ text: String) -> Date? {
        var utf8 = Array(text.utf8)
        utf8.append(0)
        return utf8.withUnsafeBufferPointer { parse($0) }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<start + count {
                let digit = Int(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard bytes.count >= 20, bytes[4] == 45, bytes[7] == 45, bytes[10] == 84 || bytes[10] == 32,
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var index = 19
        var fraction = 0.0
        if bytes[index] == 46 {
            var scale = 0.1
            index += 1
            while let digit = number(index, 1) {
                fraction += Double(digit) * scale
                scale /= 10
                index += 1
            }
        }
        guard let offset = zoneOffset(bytes, at: index) else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3_600 + minute * 60 + second - offset) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// Seconds east of UTC for `Z` / `+hh:mm` / `-hh:mm` at `index` (the buffer ends with a 0).
    private static func zoneOffset(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int? {
        switch bytes[index] {
        case 90, 122, 0: return 0
        case 43, 45:
            guard index + 6 < bytes.count else { return nil }
            let digits = [1, 2, 4, 5].map { Int(bytes[index + $0]) - 48 }
            guard digits.allSatisfy({ (0...9).contains($0) }) else { return nil }
            let value = (digits[0] * 10 + digits[1]) * 3_600 + (digits[2] * 10 + digits[3]) * 60
            return bytes[index] == 43 ? value : -value
        default: return nil
        }
    }

    /// Whole seconds since 1970 in the records' layout, `2026-01-02T10:00:05.000Z` (UTC).
    public static func format(secondsSince1970 seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        guard gmtime_r(&time, &parts) != nil else { return "1970-01-01T00:00:00.000Z" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(parts.tm_year + 1900)
        return "\(year)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).000Z"
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
