import Foundation
import PocketCore
import PocketTLS
import Synchronization
@testable import PocketWeb

/// A value shared between a test and the closures it hands the server.
final class Locked<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) {
        storage = Mutex(value)
    }

    var value: Value {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

/// Pocket's own CA in a throw-away data folder, with names a test can change (a new DHCP lease).
final class TestTrust: Sendable {
    let folder: URL
    let keeper: LeafKeeper
    private let names: Locked<ServedNames>
    private let httpsPort = Locked(8443), httpPort = Locked(8080)

    init(names initial: ServedNames = ServedNames(names: ["pocket.test", "localhost"], addresses: ["127.0.0.1", "::1"])) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pocket-trust-\(UUID().uuidString)", isDirectory: true)
        let names = Locked(initial)
        self.names = names
        let tls = TLSFolder(dataDirectory: folder)
        let authority = try tls.authority(machine: "testhost", scope: .household(names: ["pocket.test", "renewed.test"]), now: Date())
        keeper = try LeafKeeper(authority: authority, folder: tls, servedNames: { names.value })
    }

    /// The web dependency, reading the ports this object is told.
    var web: WebTrust {
        WebTrust(keeper: keeper, httpsPort: { [httpsPort] in httpsPort.value }, httpPort: { [httpPort] in httpPort.value })
    }

    func setPorts(https: Int? = nil, http: Int? = nil) {
        if let https { httpsPort.value = https }
        if let http { httpPort.value = http }
    }

    func setNames(_ served: ServedNames) {
        names.value = served
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Runs `openssl s_client` against a loopback port: the certificate the server presents (PEM),
/// without a final newline, whether it verified against `caFile` for `hostname`, and what the server
/// answered to `request`. `alpn` lists the application protocols offered (`h2,http/1.1`); the output
/// says which one the server chose (`ALPN protocol: h2`).
func openSSLClient(port: Int, hostname: String, caFile: URL, request: String = "", alpn: String? = nil) throws -> (certificate: String?, verified: Bool, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    var arguments = ["s_client", "-connect", "127.0.0.1:\(port)", "-servername", hostname, "-CAfile", caFile.path, "-verify_hostname", hostname]
    // With a request, wait for the server's answer (it closes: `Connection: close`); without one,
    // end at once, rather than when the server drops an idle connection.
    if !request.isEmpty { arguments.append("-ign_eof") }
    if let alpn { arguments += ["-alpn", alpn] }
    process.arguments = arguments
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(Data(request.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    let certificate = text.range(of: "-----BEGIN CERTIFICATE-----").flatMap { start in
        text.range(of: "-----END CERTIFICATE-----", range: start.lowerBound..<text.endIndex).map { String(text[start.lowerBound..<$0.upperBound]) }
    }
    return (certificate, text.contains("Verify return code: 0 (ok)"), text)
}
