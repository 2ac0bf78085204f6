import Foundation
import PocketCore

/// The sign-in page.
enum SignInPage {
    struct Model: Sendable {
        /// Where to go after signing in (a local path).
        let next: String
        /// The name typed last time, kept after a wrong password.
        let name: String
        /// One line saying what went wrong, if anything.
        let problem: String?
        let action = PeopleRoute.signIn.href()
        let joinHref = PeopleRoute.join.href()
    }

    /// Only a local path may follow sign-in, so the form cannot send anyone to another site.
    static func safeNext(_ raw: String?) -> String {
        let next = ReturnAddress.within("/", raw, otherwise: "/")
        // Signing in again or out straight after signing in would undo it.
        return next.hasPrefix(PeopleRoute.signIn.href()) || next.hasPrefix(PeopleRoute.signOut.href()) ? "/" : next
    }
}
