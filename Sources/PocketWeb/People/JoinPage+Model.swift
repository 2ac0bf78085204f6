import Foundation
import PocketCore

/// Pairing, on the phone: type the short code, or confirm the link's person.
enum JoinPage {
    struct Model: Sendable {
        let action: String
        /// Whose phone this becomes (a valid link), or nil on the type-a-code form.
        let personName: String?
        let problem: String?
        let isCodeForm: Bool
    }
}
