import Foundation
import PocketCore

/// What a new Pocket shows at every address but its setup link.
enum NotSetUp {
    struct Model: Sendable {
        let message = "This Pocket has no owner yet. Open the setup link that “pocket serve” printed when it started, or add the owner with “pocket users add NAME --owner”."
    }
}
