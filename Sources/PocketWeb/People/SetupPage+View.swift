import PocketCore

extension SetupPage {
    /// The owner's name and password, once.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var body: HTML {
            """
            <form class="list-section" method="post" action="\(model.action)" id="setup-form" data-no-swap aria-labelledby="setup-h">
            <h2 class="list-section__header" id="setup-h">Welcome: choose the owner’s name and password</h2>
            \(Components.csrf(pageContext))
            \(PeopleForm.problemLine(model.problem, id: "setup-problem"))
            <div class="list">
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="setup-name">Your name</label><input class="text-field" id="setup-name" type="text" name="name" value="\(model.name)" autocomplete="username" required maxlength="40"></div></div>
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="setup-password">Password (8 characters or more)</label><input class="text-field" id="setup-password" type="password" name="password" autocomplete="new-password" required minlength="8" maxlength="72"></div></div>
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="setup-confirm">Password again</label><input class="text-field" id="setup-confirm" type="password" name="confirm" autocomplete="new-password" required minlength="8" maxlength="72"></div></div>
            <div class="cell"><div class="cell__main"><button class="button button--large" type="submit" id="setup-button">Set Up Pocket</button></div></div>
            </div>
            <p class="list-section__footer">You will be this Pocket’s owner: you add the rest of the household and pair their phones in Settings.</p>
            </form>
            """
        }
    }
}
