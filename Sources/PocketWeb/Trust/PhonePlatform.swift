/// Which kind of device a page is talking to, for offering the right CA download and the right
/// Settings screens. Read from the User-Agent; the page's script corrects an iPad that says "Mac".
enum PhonePlatform: String, Sendable, CaseIterable {
    case apple
    case android
    case other

    /// The platform a User-Agent names.
    init(userAgent: String?) {
        let agent = userAgent ?? ""
        if agent.contains("iPhone") || agent.contains("iPad") || agent.contains("iPod") {
            self = .apple
        } else if agent.contains("Android") {
            self = .android
        } else {
            self = .other
        }
    }
}
