import HTTPTypes

/// The friendly page shown for 4xx and 5xx responses.
enum ErrorPage {
    struct Model: Sendable {
        let status: HTTPResponse.Status
        let code: Int
        let title: String
        let message: String
        let requestID: String
        let path: String
        let showRequestID: Bool

        /// Our own 4xx and 503 messages are written for people, so they are shown; any other 5xx never
        /// reveals its cause.
        init(status: HTTPResponse.Status, message: String?, requestID: String, path: String) {
            self.status = status
            self.code = status.code
            self.requestID = requestID
            self.path = path
            self.showRequestID = status.code >= 500
            switch status.code {
            case 404:
                title = "Not Found"
                self.message = message ?? "There is nothing at this address in Pocket. It may have moved, or the link may be mistyped."
            case 400:
                title = "Bad Request"
                self.message = message ?? "Pocket could not understand that request."
            case 403:
                title = "Not Allowed"
                self.message = message ?? "That action is not allowed."
            case 405:
                title = "Not Allowed"
                self.message = "This address does not accept that kind of request."
            case 413:
                title = "Too Large"
                self.message = message ?? "What you sent is larger than Pocket accepts."
            case 400..<500:
                title = status.reasonPhrase
                self.message = message ?? "Pocket could not complete that request."
            case 503:
                // Passing (out of file handles, say), not a fault: our own message says to try again.
                title = "Busy Just Now"
                self.message = message ?? "Pocket cannot answer just now. Try again in a moment."
            default:
                title = "Something Went Wrong"
                self.message = "Pocket hit a problem on its side. Your data is safe. Try again, and if it keeps happening, quote the request ID below."
            }
        }
    }
}
