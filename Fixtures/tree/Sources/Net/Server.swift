import Foundation

/// A Server accepts connections on an EventLoop.
public struct Server {
    public let loop: EventLoop
    public let port: Int

    public init(on loop: EventLoop, port: Int) {
        self.loop = loop
        self.port = port
    }

    public func start() throws {}
}
