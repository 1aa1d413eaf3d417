import TrawlMatch
import TrawlTestSupport

/// The reference the differential tests compare against: ``PCRE2Reference`` on one contiguous
/// buffer (no windows, no prefilter, no partial matching).
struct ContiguousOracle {
    let reference: PCRE2Reference

    init(pattern: String, caseless: Bool) throws {
        reference = try PCRE2Reference(pattern: pattern, caseless: caseless)
    }

    func matches(in bytes: [UInt8]) throws -> [Match] {
        try bytes.withUnsafeBufferPointer { try reference.matches(in: $0) }
    }

    func matchesLineByLine(in bytes: [UInt8]) throws -> [Match] {
        try bytes.withUnsafeBufferPointer { try reference.matchesLineByLine(in: $0) }
    }
}
