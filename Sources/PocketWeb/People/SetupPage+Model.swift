import Foundation
import PocketCore

/// The one-time setup page of a new Pocket.
enum SetupPage {
    struct Model: Sendable {
        let action: String
        let name: String
        let problem: String?
    }
}
