import Foundation

// Making the search index describe the file in use: built after the install that brought it (at
// once by a server, else by the first search), never during it.

extension ConferenceLibrary {
    /// Makes the search index describe `generation`'s file, building it unless it does already.
    /// One build at a time per file: callers that ask meanwhile wait for it.
    func prepareSearch(for generation: CoreGeneration) async throws {
        let fileName = generation.file.lastPathComponent
        if let task = searchBuilds[fileName] { return try await task.value }
        let state = state
        let task = Task { try await state.buildSearch(for: generation) }
        searchBuilds[fileName] = task
        defer { if searchBuilds[fileName] == task { searchBuilds[fileName] = nil } }
        try await task.value
    }
}
