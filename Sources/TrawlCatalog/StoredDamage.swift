import Synchronization
import TrawlStorage

/// What was found damaged first in a stored catalog's index as searches read it (a checksum, a
/// size, a list or a record that does not hold): shared by the parts that read it, so that
/// ``Catalog/damage`` can tell that results may lack items.
final class StoredDamage: Sendable {
    private let first = Mutex<StoredFormatError?>(nil)

    /// Notes `damage`, unless something was noted before.
    func note(_ damage: StoredFormatError) {
        first.withLock { if $0 == nil { $0 = damage } }
    }

    /// The first damage noted, if any.
    var value: StoredFormatError? { first.withLock { $0 } }
}
