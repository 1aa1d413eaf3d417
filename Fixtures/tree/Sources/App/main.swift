import Net

// The app starts an EventLoop and serves requests until it is told to stop.
let loop = EventLoop(threads: 2)
let server = Server(on: loop, port: 8080)
try server.start()
print("listening on \(server.port) with \(loop.threadCount) threads")
loop.run()
