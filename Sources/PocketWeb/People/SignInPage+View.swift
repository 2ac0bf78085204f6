import PocketCore

extension SignInPage {
    /// The sign-in form.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var body: HTML {
            """
            <form class="list-section" method="post" action="\(model.action)" id="signin-form" data-no-swap aria-labelledby="signin-h">
            <h2 class="list-section__header" id="signin-h">Sign in to Pocket</h2>
            \(Components.csrf(pageContext))
            <input type="hidden" name="next" value="\(model.next)">
            \(PeopleForm.problemLine(model.problem, id: "signin-problem"))
            <div class="list">
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="signin-name">Name</label><input class="text-field" id="signin-name" type="text" name="name" value="\(model.name)" autocomplete="username" autocapitalize="none" required maxlength="40"></div></div>
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="signin-password">Password</label><input class="text-field" id="signin-password" type="password" name="password" autocomplete="current-password" required maxlength="200"></div></div>
            <div class="cell"><div class="cell__main"><button class="button button--large" type="submit" id="signin-button">Sign In</button></div></div>
            </div>
            <p class="list-section__footer">On a phone, you can skip the password: on a signed-in device open Settings → Pair a Phone and scan its code, or <a href="\(model.joinHref)">type a pairing code</a>.</p>
            </form>
            """
        }
    }
}
