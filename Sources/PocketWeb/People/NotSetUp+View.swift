import PocketCore

extension NotSetUp {
    /// What every address but the setup link shows before there is an owner.
    struct View: PageView {
        let model: Model

        var body: HTML {
            """
            <section class="list-section" aria-labelledby="not-set-up-h">
            <h2 class="list-section__header" id="not-set-up-h">Not set up yet</h2>
            <p class="people-message" id="not-set-up">\(model.message)</p>
            </section>
            """
        }
    }
}
