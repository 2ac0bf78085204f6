/// The remotes' and the Screen's symbols, drawn once per page as an inline SVG sprite that each
/// button's `<use href="#remote-icon-…">` points into (a `DVRButton`'s `icon` names one).
enum RemoteIcons {
    /// The sprite: markup built into Pocket, with nothing from outside in it.
    static let sprite: HTML = """
        <svg class="remote-sprite" aria-hidden="true" focusable="false" width="0" height="0">
        <symbol id="remote-icon-play" viewBox="0 0 24 24"><path fill="currentColor" d="M8 5.6v12.8a1 1 0 0 0 1.53.85l10.05-6.4a1 1 0 0 0 0-1.7L9.53 4.75A1 1 0 0 0 8 5.6z"/></symbol>
        <symbol id="remote-icon-pause" viewBox="0 0 24 24"><rect fill="currentColor" x="6" y="5" width="4.2" height="14" rx="1.2"/><rect fill="currentColor" x="13.8" y="5" width="4.2" height="14" rx="1.2"/></symbol>
        <symbol id="remote-icon-stop" viewBox="0 0 24 24"><rect fill="currentColor" x="6" y="6" width="12" height="12" rx="2"/></symbol>
        <symbol id="remote-icon-record" viewBox="0 0 24 24"><circle fill="currentColor" cx="12" cy="12" r="6.5"/></symbol>
        <symbol id="remote-icon-fast-forward" viewBox="0 0 24 24"><path fill="currentColor" d="M2.5 7v10a.9.9 0 0 0 1.4.75L11 12.9V17a.9.9 0 0 0 1.4.75l8.2-5a.9.9 0 0 0 0-1.5l-8.2-5A.9.9 0 0 0 11 7v4.1L3.9 6.25A.9.9 0 0 0 2.5 7z"/></symbol>
        <symbol id="remote-icon-fast-rewind" viewBox="0 0 24 24"><path fill="currentColor" d="M21.5 7v10a.9.9 0 0 1-1.4.75L13 12.9V17a.9.9 0 0 1-1.4.75l-8.2-5a.9.9 0 0 1 0-1.5l8.2-5A.9.9 0 0 1 13 7v4.1l7.1-4.85A.9.9 0 0 1 21.5 7z"/></symbol>
        <symbol id="remote-icon-power" viewBox="0 0 24 24"><path fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" d="M12 3.5v8M7.2 6.6a7.2 7.2 0 1 0 9.6 0"/></symbol>
        <symbol id="remote-icon-up" viewBox="0 0 24 24"><path fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round" d="M6 15l6-6 6 6"/></symbol>
        <symbol id="remote-icon-down" viewBox="0 0 24 24"><path fill="none" stroke="currentColor" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round" d="M6 9l6 6 6-6"/></symbol>
        <symbol id="remote-icon-speaker" viewBox="0 0 24 24"><path fill="currentColor" d="M4 9.5h3.2L12 5.6v12.8l-4.8-3.9H4z"/></symbol>
        <symbol id="remote-icon-speaker-loud" viewBox="0 0 24 24"><path fill="currentColor" d="M3 9.5h3.2L11 5.6v12.8l-4.8-3.9H3z"/><path fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" d="M14.5 9.2a4 4 0 0 1 0 5.6M17.3 6.6a7.8 7.8 0 0 1 0 10.8"/></symbol>
        <symbol id="remote-icon-flip" viewBox="0 0 24 24"><path fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" d="M4 10a8 8 0 0 1 14.3-3.8M20 4v4h-4M20 14a8 8 0 0 1-14.3 3.8M4 20v-4h4"/></symbol>
        </svg>
        """
}
