import Foundation
@_exported import TrawlTestSupport
import TrawlMatch
import TrawlText

enum Settings {
    static var seed: UInt64 { PropertyTestSettings.seed(default: 0x6D61_7463) }
    static var scale: Int { PropertyTestSettings.scale }
}

