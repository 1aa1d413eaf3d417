import Foundation
import Testing
@testable import TrawlFiles

/// The keyed hash that marks what Trawl made for this user, and the temporary names it proves.
@Suite struct UserKeyTests {
    /// The reference vectors of SipHash-2-4 (key 00…0f, messages 00, 00 01, …), as its authors
    /// publish them.
    @Test(arguments: [(0, 0x726F_DB47_DD0E_0E31 as UInt64), (1, 0x74F8_39C5_93DC_67FD), (8, 0x93F5_F579_9A93_2462),
                      (15, 0xA129_CA61_49BE_45E5), (63, 0x958A_324C_EB06_4572)])
    func sipHashGivesTheReferenceVectors(length: Int, expected: UInt64) {
        let key = UserKey((0..<16).map { UInt8($0) })
        #expect(SipHash.hash((0..<length).map { UInt8($0) }[...], key: key) == expected)
    }

    /// Only a name made for this user by a run no longer alive is stale; files named like one
    /// (the old format, another tag, words) never are.
    @Test func onlyTaggedLeftoversOfDeadRunsAreStale() throws {
        let key = try UserKey.user.get()
        // A process that has exited: its number is free (numbers are not reused for a long while).
        let child = try Child.start("/bin/true", [])
        _ = child.wait()
        func tag(_ serial: String) -> String {
            let hex = String(SipHash.hash(Array(serial.utf8)[...], key: key), radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }
        let serial = "\(child.pid)-3", leftoverTag = tag(serial)
        #expect(AtomicFile.isStaleTemporary(Array(".trawl-\(serial)-\(leftoverTag).tmp".utf8)))
        // This process is alive: its temporaries are not leftovers.
        #expect(!AtomicFile.isStaleTemporary(Array(".trawl-\(getpid())-3-\(tag("\(getpid())-3")).tmp".utf8)))
        for name in [".trawl-\(serial).tmp", ".trawl-\(serial)-0123456789abcdef.tmp", ".trawl-\(child.pid)-notes.tmp", ".trawl-\(serial)-\(leftoverTag).tmp.bak",
                     ".trawl-\(serial)-\(leftoverTag.uppercased()).tmp", ".trawl--\(serial)-\(leftoverTag).tmp", ".trawl-\(child.pid)-3-4-\(leftoverTag).tmp"] {
            #expect(!AtomicFile.isStaleTemporary(Array(name.utf8)), "\(name)")
        }
        #expect(AtomicFile.isTemporaryName(Array(".trawl-\(serial).tmp".utf8)))
        #expect(!AtomicFile.isTemporaryName(Array(".trawl-\(child.pid)-notes.tmp".utf8)))
    }
}
