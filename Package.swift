// swift-tools-version:6.2
import PackageDescription

// Pocket: five classic mobile apps behind one home screen.
// Layers, bottom to top (a lower layer never imports a higher one):
//   PocketCore -> app modules -> PocketWeb -> pocket (executable)

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Pocket",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "pocket", targets: ["pocket"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation.git", from: "0.9.20"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/vapor/multipart-kit", from: "4.7.1"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
    ],
    targets: [
        // MARK: Core
        // glibc's <malloc.h> (mallopt), for ProcessMemory.
        .systemLibrary(name: "PocketMalloc"),
        // Debian's libqrencode (libqrencode-dev), for pairing QR codes.
        .systemLibrary(name: "PocketQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .target(
            name: "PocketCore",
            dependencies: [
                "PocketMalloc",
                "PocketQRencode",
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                // Backup archives (Backup/).
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: swiftSettings
        ),

        // Pocket's own certificate authority and the leaf certificate phones are shown.
        .target(
            name: "PocketTLS",
            dependencies: [
                "PocketCore",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Apps
        // The system zlib (zlib1g-dev), which ZIPFoundation links on Linux anyway.
        .systemLibrary(name: "PocketZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libdeflate (libdeflate-dev): gzip for responses, a whole body at a time.
        .systemLibrary(name: "PocketDeflate", pkgConfig: "libdeflate", providers: [.apt(["libdeflate-dev"])]),
        .target(
            name: "Conference",
            dependencies: [
                "PocketCore",
                "PocketZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Plates",
            dependencies: [
                "PocketCore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            resources: [.copy("Resources/states.json"), .copy("Resources/SOURCES.md")],
            swiftSettings: swiftSettings
        ),

        .target(
            name: "Remote",
            dependencies: [
                "PocketCore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),

        .target(
            name: "Converter",
            dependencies: [
                "PocketCore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),

        // Debian's libexpat (libexpat1-dev), for reading GPX files.
        .systemLibrary(name: "PocketExpat", pkgConfig: "expat", providers: [.apt(["libexpat1-dev"])]),
        .target(
            name: "Murals",
            dependencies: [
                "PocketCore",
                "PocketExpat",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Resources")],
            swiftSettings: swiftSettings
        ),

        // MARK: Web
        .target(
            name: "PocketWeb",
            dependencies: [
                "PocketCore",
                "Plates",
                "Remote",
                "Converter",
                "Conference",
                "Murals",
                "PocketTLS",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                // HTTP/2 beside HTTP/1.1 over Pocket's TLS, chosen by ALPN.
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                // The TLS handshake's ALPN result and HTTP/2's stream events, for the idle limit.
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // Streaming multipart/form-data parsing (Conference upload, personal-data import).
                .product(name: "MultipartKit", package: "multipart-kit"),
                // gzip for responses (static files compressed once at start, pages per request).
                "PocketDeflate",
            ],
            resources: [
                .copy("Resources/Public"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Executable
        .executableTarget(
            name: "pocket",
            dependencies: [
                "PocketCore",
                "Plates",
                "Remote",
                "Converter",
                "Conference",
                "Murals",
                "PocketWeb",
                "PocketTLS",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Benchmarks
        .executableTarget(
            name: "PocketBench",
            dependencies: [
                "PocketCore",
                "Conference",
                "Murals",
                "Plates",
                "PocketWeb",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "bench/PocketBench",
            swiftSettings: swiftSettings
        ),

        // MARK: Tests
        // What several suites share (running the browser's JavaScript in Node for the cross-checks,
        // the loopback server the outside services' fixtures run on); only test targets depend on it.
        .target(
            name: "TestSupport",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PocketCoreTests",
            dependencies: [
                "PocketCore",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PocketTLSTests",
            dependencies: [
                "PocketTLS",
                "PocketCore",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PlatesTests",
            dependencies: [
                "Plates",
                "TestSupport",
                "PocketCore",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RemoteTests",
            dependencies: ["Remote", "PocketCore", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ConverterTests",
            dependencies: ["Converter", "PocketCore", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ConferenceTests",
            dependencies: [
                "Conference",
                "PocketCore",
                "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MuralsTests",
            dependencies: [
                "Murals",
                "PocketCore",
                "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PocketWebTests",
            dependencies: [
                "PocketWeb",
                "PocketCore",
                "TestSupport",
                "Plates",
                "Remote",
                "Converter",
                "Conference",
                "Murals",
                "PocketTLS",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                // The inline stylesheets' hashes, worked out apart from the policy that names them.
                .product(name: "Crypto", package: "swift-crypto"),
                // zlib's own reading of what libdeflate wrote: an independent check of every gzip.
                .product(name: "CompressNIO", package: "compress-nio"),
                // A removed person's rows, read from each app's file apart from its store.
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
