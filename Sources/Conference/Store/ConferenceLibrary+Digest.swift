import Foundation

// Finding the digest (`CoreDigest`) of the file in use: built by the install that brought the
// file, else (a file installed before digests existed, or the sample) built on first use.

extension ConferenceLibrary {
    /// The id of `generation`'s digest, building it if there is none yet; nil if it cannot be
    /// built, and then the screens read the file itself. One build at a time per file: callers
    /// that ask meanwhile wait for it.
    func digest(for generation: CoreGeneration) async -> Int64? {
        let fileName = generation.file.lastPathComponent
        if let task = digests[fileName] { return await task.value }
        let state = state
        let task = Task<Int64?, Never> {
            if let id = try? await state.digestID(for: fileName) { return id }
            return try? await state.buildDigest(from: generation)
        }
        digests[fileName] = task
        let id = await task.value
        // Try again next time rather than answering from the file for ever.
        if id == nil, digests[fileName] == task { digests[fileName] = nil }
        return id
    }

    /// Forgets `generation`'s digest id after a read found it gone, so the next screen looks again.
    func forgetDigest(of generation: CoreGeneration) {
        digests[generation.file.lastPathComponent] = nil
    }
}
