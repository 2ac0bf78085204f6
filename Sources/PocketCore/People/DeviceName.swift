/// A readable name for a signed-in device, made from its user agent ("Safari on iPhone").
public enum DeviceName {
    /// The browser and system a user agent names, or "Unknown browser".
    public static func from(userAgent: String?) -> String {
        guard let agent = userAgent, !agent.isEmpty else { return "Unknown browser" }
        // Order matters: iPhone and Android agents also say "Mac OS X" and "Linux".
        let systems: [(String, String)] = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("CrOS", "ChromeOS"),
            ("Windows", "Windows"), ("Macintosh", "Mac"), ("Linux", "Linux"),
        ]
        let browsers: [(String, String)] = [
            ("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("FxiOS/", "Firefox"),
            ("CriOS/", "Chrome"), ("HeadlessChrome/", "Headless Chrome"), ("Chrome/", "Chrome"), ("Safari/", "Safari"),
            ("curl/", "curl"), ("python", "Python"),
        ]
        let system = systems.first { agent.contains($0.0) }?.1
        let browser = browsers.first { agent.contains($0.0) }?.1
        switch (browser, system) {
        case let (browser?, system?): return "\(browser) on \(system)"
        case let (browser?, nil): return browser
        case let (nil, system?): return "Browser on \(system)"
        case (nil, nil): return "Unknown browser"
        }
    }
}
