import PocketCore

extension JoinPage {
    /// Pairing on the phone: the code form, or "Continue as NAME" for a valid link.
    struct View: PageView {
        let model: Model
        let pageContext: PageContext

        var body: HTML {
            """
            <form class="list-section" method="post" action="\(model.action)" id="join-form" data-no-swap aria-labelledby="join-h">
            \(Components.csrf(pageContext))
            <h2 class="list-section__header" id="join-h">Pair this phone</h2>
            \(PeopleForm.problemLine(model.problem, id: "join-problem"))
            \(if: model.isCodeForm, codeForm, else: personForm)
            </form>
            """
        }

        private var codeForm: HTML {
            """
            <div class="list">
            <div class="cell"><div class="cell__main cell__main--stack"><label class="cell__title" for="join-code">Pairing code</label><input class="text-field" id="join-code" type="text" name="code" autocomplete="one-time-code" autocapitalize="characters" required maxlength="20" placeholder="ABCD-EFGH"></div></div>
            <div class="cell"><div class="cell__main"><button class="button button--large" type="submit" id="join-button">Pair</button></div></div>
            </div>
            <p class="list-section__footer">On a signed-in device, open Settings → Pair a Phone for a code, or on the computer running Pocket, run <code>pocket pair</code> with your name. It works once, for 5 minutes.</p>
            """
        }

        private var personForm: HTML {
            """
            \(unwrap: model.personName, { name in """
            <div class="list">
            <div class="cell"><div class="cell__main"><span class="cell__text"><span class="cell__title" id="join-person">Sign in as \(name) on this device</span></span></div></div>
            <div class="cell"><div class="cell__main"><button class="button button--large" type="submit" id="join-button">Continue as \(name)</button></div></div>
            </div>
            """ })
            """
        }
    }
}
