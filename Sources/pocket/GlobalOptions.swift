import ArgumentParser
import Foundation
import Logging
import PocketCore

/// Options every command that touches data shares.
struct DataOptions: ParsableArguments {
    @Option(name: .setting(Settings.dataDirectory), help: ArgumentHelp(Settings.dataDirectory))
    var dataDirectory: String?

    @Option(name: .setting(Settings.logLevel), help: ArgumentHelp(Settings.logLevel))
    var logLevel: String?
}

/// Where `pocket serve` listens and with which certificate: `serve` takes them, and `pair` takes
/// the same ones to print the running server's links.
struct ListenerOptions: ParsableArguments {
    @Option(name: .setting(Settings.host), help: ArgumentHelp(Settings.host))
    var host: String?

    @Option(name: .setting(Settings.port), help: ArgumentHelp(Settings.port))
    var port: String?

    @Option(name: .setting(Settings.tlsCertificate), help: ArgumentHelp(Settings.tlsCertificate))
    var tlsCertificate: String?

    @Option(name: .setting(Settings.tlsKey), help: ArgumentHelp(Settings.tlsKey))
    var tlsKey: String?
}

extension ArgumentHelp {
    /// `setting`'s line in `--help`, from the one table of settings.
    init(_ setting: Setting) {
        self.init(setting.helpLine, valueName: setting.valueName)
    }
}

extension NameSpecification {
    /// `setting`'s long option, from the one table of settings.
    static func setting(_ setting: Setting) -> NameSpecification {
        .customLong(setting.option ?? "")
    }
}

extension PocketConfiguration.Options {
    /// Only the data options, for commands that do not serve.
    init(_ data: DataOptions) {
        self.init(dataDirectory: data.dataDirectory, logLevel: data.logLevel)
    }
}
