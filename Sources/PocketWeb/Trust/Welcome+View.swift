extension Welcome {
    /// "This phone is Bea's": the Home Screen steps and the way into Pocket.
    struct View: PageView {
        let model: Model

        var body: HTML {
            """
            <section class="list-section" aria-labelledby="welcome-h">
            <h2 class="list-section__header" id="welcome-h">This phone is signed in as \(model.personName)</h2>
            <p class="people-message" id="welcome-message">Put Pocket on the Home Screen: it then opens full screen, with its own icon, and keeps working when the phone is away from home.</p>
            <ol class="list" id="welcome-steps">\(each: model.steps, { "<li class=\"cell\"><span class=\"cell__main\"><span class=\"cell__title\">\($0)</span></span></li>" })</ol>
            </section>
            <p class="people-message"><a class="button button--large" href="\(model.homeHref)" id="welcome-open">Open Pocket</a></p>
            """
        }
    }
}
