import Foundation
import PocketCore

/// The pairing code just made, on the signed-in screen.
enum PairPage {
    struct Model: Sendable {
        let personName: String
        let link: String
        let otherLinks: [String]
        let shortCode: String
        /// The QR code as an SVG data URL (an image, so no markup is inserted into the page).
        let qrImage: String
        let expiresAt: String
        let joinHref: String
    }
}
