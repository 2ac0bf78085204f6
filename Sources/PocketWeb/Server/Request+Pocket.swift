import Hummingbird

extension Request {
    /// The query string's fields.
    public var queryFields: FormFields {
        FormFields(urlEncoded: uri.query ?? "")
    }

    /// Collects and parses a urlencoded form body, within the context's upload limit.
    public mutating func formFields(context: PocketRequestContext) async throws -> FormFields {
        let buffer: ByteBuffer
        do {
            buffer = try await collectBody(upTo: context.maxUploadSize)
        } catch {
            throw HTTPError(.contentTooLarge, message: "That form is too large to send.")
        }
        return FormFields(urlEncoded: String(buffer: buffer))
    }

    /// Whether the client asked for a page fragment swap (pocket.js sets this header).
    public var isSwap: Bool {
        headers[.pocketSwap] != nil
    }
}
