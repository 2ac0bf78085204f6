import Foundation
import PocketCore

// Moving bytes: the resumable download, the zip extraction and the import copy. Temporary files
// live in the library's `incoming` folder:
//   <download-name>.part          the download so far
//   <download-name>.resume.json   which server version the partial file holds (url, md5, size, ETag/Last-Modified)
//   <content-name>.extracting     the database being unzipped
//   import-<uuid>.db              a copy of a file being imported

extension DatabaseInstaller {
    /// Downloads `name` next to the manifest into `incoming`, resuming a partial file that an
    /// interrupted run left for the same file, and checks its MD5. With `unzipping`, the zip's
    /// database is unpacked while it downloads (see `ZipFollower`), for `extract` to take.
    func download(_ name: String, size: Int64, md5: String, manifestURL: URL, manifest: SCIManifest,
                  unzipping: Bool = false) async throws -> (file: URL, follower: ZipFollower?) {
        let url = manifest.url(of: name, relativeTo: manifestURL)
        let folder = library.incomingFolder
        let part = folder.appendingPathComponent(name + ResumeRecord.partSuffix)
        let resumeFile = folder.appendingPathComponent(name + ResumeRecord.recordSuffix)
        let saved = ResumeRecord.load(resumeFile)
        var validator: DownloadValidator?
        if let saved, saved.url == url.absoluteString, saved.md5 == md5, saved.size == size,
           FileManager.default.fileExists(atPath: part.path) {
            validator = saved.validator
        }
        // Anything else in the folder is left over from another file or version.
        library.cleanIncoming(keeping: validator == nil ? [] : [part.lastPathComponent, resumeFile.lastPathComponent])

        for round in 1...2 {
            var options = settings.download
            options.expectedSize = size
            options.validator = validator
            await reportBytes(.downloading, done: 0, total: size)
            let follower = unzipping ? follow(part, manifest: manifest) : nil
            let result: DownloadResult
            do {
                result = try await transfer(url, to: part, options: options, resume: ResumeRecord(url: url.absoluteString, md5: md5, size: size, validator: nil),
                                            resumeFile: resumeFile, follower: follower)
                follower?.downloadEnded()
            } catch {
                await follower?.stop()
                throw error
            }
            await reportBytes(.verifying, done: result.byteCount, total: size)
            guard result.byteCount == size else {
                await follower?.stop()
                throw ConferenceError.sizeMismatch(file: name, expected: size, actual: result.byteCount)
            }
            if result.md5 == md5 {
                removeInBackground([resumeFile])
                return (part, follower)
            }
            await follower?.stop()
            // Bytes kept from an earlier run may belong to another upload under the same validator:
            // fetch the whole file once more before calling it damaged.
            guard result.resumedFrom > 0, round == 1 else {
                throw ConferenceError.checksumMismatch(file: name, expected: md5, actual: result.md5)
            }
            try? FileManager.default.removeItem(at: part)
            try? FileManager.default.removeItem(at: resumeFile)
            validator = nil
        }
        throw ConferenceError.checksumMismatch(file: name, expected: md5, actual: "unknown")
    }

    /// Unzips the manifest's `content-name` and checks its size and MD5; the zip is deleted. What
    /// `follower` unpacked during the download is taken if the finished zip confirms it.
    func extract(_ zip: URL, manifest: SCIManifest, follower: ZipFollower? = nil) async throws -> URL {
        let destination = incomingDatabase(manifest)
        await reportBytes(.extracting, done: 0, total: manifest.contentSize)
        if let unpacked = await follower?.result(),
           (try? ZipExtractor.accept(unpacked, archive: zip, entryName: manifest.contentName, destination: destination,
                                     limit: manifest.contentSize)) == true {
            return try await checked(destination, ZipExtractor.Extracted(byteCount: unpacked.byteCount, md5: unpacked.md5), zip: zip,
                                     manifest: manifest)
        }
        let cancelled = Flag()
        let (stream, continuation) = AsyncStream<Int64>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let reporter = Task {
            for await bytes in stream { await reportBytes(.extracting, done: bytes, total: manifest.contentSize) }
        }
        let extracted: ZipExtractor.Extracted
        do {
            extracted = try await withTaskCancellationHandler {
                try await runBlocking {
                    try ZipExtractor.extract(archive: zip, entryName: manifest.contentName, to: destination, limit: manifest.contentSize,
                                             cancellation: cancelled) { continuation.yield($0) }
                }
            } onCancel: {
                cancelled.set()
            }
        } catch {
            continuation.finish()
            await reporter.value
            throw error
        }
        continuation.finish()
        await reporter.value
        return try await checked(destination, extracted, zip: zip, manifest: manifest)
    }

    /// Where the database is unpacked.
    func incomingDatabase(_ manifest: SCIManifest) -> URL {
        library.incomingFolder.appendingPathComponent(manifest.contentName + ".extracting")
    }

    /// Deletes the zip and checks the unpacked database's size and MD5.
    private func checked(_ destination: URL, _ extracted: ZipExtractor.Extracted, zip: URL, manifest: SCIManifest) async throws -> URL {
        // Freeing a large file's blocks takes the file system tens of milliseconds: let that
        // overlap the checks that follow (the install waits for it before it ends).
        removeInBackground([zip, zip.deletingPathExtension().appendingPathExtension("resume.json")])
        await reportBytes(.verifying, done: extracted.byteCount, total: manifest.contentSize)
        guard extracted.byteCount == manifest.contentSize else {
            throw ConferenceError.sizeMismatch(file: manifest.contentName, expected: manifest.contentSize, actual: extracted.byteCount)
        }
        guard extracted.md5 == manifest.contentMD5 else {
            throw ConferenceError.checksumMismatch(file: manifest.contentName, expected: manifest.contentMD5, actual: extracted.md5)
        }
        return destination
    }

    /// Copies a file to import into `incoming`, hashing it, in constant memory.
    func copyHashing(_ source: URL, to destination: URL, total: Int64?) async throws -> (byteCount: Int64, md5: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source.path, isDirectory: &isDirectory), !isDirectory.boolValue,
              FileManager.default.isReadableFile(atPath: source.path) else {
            throw ConferenceError.fileSystem("cannot read \(source.path)")
        }
        let cancelled = Flag()
        let (stream, continuation) = AsyncStream<Int64>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let follower = Task {
            for await bytes in stream { await reportBytes(.verifying, done: bytes, total: total) }
        }
        defer { continuation.finish() }
        let result = try await withTaskCancellationHandler {
            try await runBlocking { () throws -> (Int64, String) in
                let failure = ConferenceError.fileSystem("cannot copy \(source.lastPathComponent) into the data folder")
                guard let input = FileHandle(forReadingAtPath: source.path) else { throw failure }
                defer { try? input.close() }
                guard let output = try? HashingFileSink(file: destination) else { throw failure }
                defer { output.close() }
                do {
                    while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty {
                        if cancelled.isSet { throw ConferenceError.cancelled }
                        try output.write(chunk)
                        continuation.yield(output.byteCount)
                    }
                    return (output.byteCount, try output.finish())
                } catch let error as ConferenceError {
                    throw error
                } catch {
                    throw failure
                }
            }
        } onCancel: {
            cancelled.set()
        }
        continuation.finish()
        await follower.value
        return (result.0, result.1)
    }
}

// MARK: - Private

private extension DatabaseInstaller {
    /// Starts unpacking the manifest's database from `part` as it downloads.
    func follow(_ part: URL, manifest: SCIManifest) -> ZipFollower {
        let name = manifest.contentName
        return ZipFollower(part: part, destination: incomingDatabase(manifest), limit: manifest.contentSize) { path in
            path == name || path.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) == name
        }
    }

    /// One download with its progress followed in order; the validator is saved next to the
    /// partial file as soon as the server sends it, so a killed run can resume.
    func transfer(_ url: URL, to part: URL, options: DownloadOptions, resume: ResumeRecord, resumeFile: URL,
                  follower: ZipFollower?) async throws -> DownloadResult {
        let (stream, continuation) = AsyncStream<DownloadProgress>.makeStream(bufferingPolicy: .bufferingNewest(4))
        let reporter = Task {
            var saved: DownloadValidator?
            for await progress in stream {
                if let validator = progress.validator, validator != saved {
                    saved = validator
                    var record = resume
                    record.validator = validator
                    record.save(to: resumeFile)
                }
                await reportBytes(.downloading, done: progress.bytesReceived, total: progress.totalBytes ?? resume.size)
            }
        }
        do {
            let result = try await downloader.download(url, to: part, options: options) { progress in
                follower?.received()
                continuation.yield(progress)
            }
            continuation.finish()
            await reporter.value
            return result
        } catch {
            continuation.finish()
            await reporter.value
            throw ConferenceError(error)
        }
    }
}

/// What a partial download holds, saved beside it.
struct ResumeRecord: Codable, Equatable {
    var url: String
    var md5: String
    var size: Int64
    var validator: DownloadValidator?

    /// Ends the name of a partial download (`<download-name>.part`).
    static let partSuffix = ".part"
    /// Ends the name of the record beside it (`<download-name>.resume.json`).
    static let recordSuffix = ".resume.json"

    static func load(_ file: URL) -> ResumeRecord? {
        guard let data = try? Data(contentsOf: file) else { return nil }
        return try? JSONDecoder().decode(ResumeRecord.self, from: data)
    }

    func save(to file: URL) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? data.write(to: file, options: .atomic)
    }
}
