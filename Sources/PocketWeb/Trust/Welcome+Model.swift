/// After pairing: the phone is signed in, and Pocket suggests putting itself on the Home Screen,
/// which is what makes it open full screen and work offline like an app.
enum Welcome {
    struct Model: Sendable, Equatable {
        let personName: String
        /// How this kind of phone adds a page to its Home Screen.
        let steps: [String]
        let homeHref: String

        init(personName: String, platform: PhonePlatform) {
            self.personName = personName
            homeHref = ShellRoute.home.href()
            switch platform {
            case .apple:
                steps = ["In Safari, tap the Share button.", "Tap Add to Home Screen, then Add."]
            case .android:
                steps = ["In Chrome, tap the ⋮ menu.", "Tap Add to Home screen (or Install app), then Install."]
            case .other:
                steps = ["In your browser’s menu, choose Install Pocket, or Add to Home Screen."]
            }
        }
    }
}
