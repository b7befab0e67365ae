// Before the first paint (a file, not an inline script: the Content-Security-Policy allows only
// the site's own scripts). Everything here only reads the address and sets attributes on <html>.
(() => {
  const root = document.documentElement;
  // Whether the frame's parent is on another origin (reading its address throws there).
  const otherSite = () => {
    const ancestors = location.ancestorOrigins;
    if (ancestors && ancestors.length > 0) return ancestors[0] !== location.origin;
    try {
      return window.parent.location.origin !== location.origin;
    } catch {
      return true;
    }
  };
  // An invite link shows the join screen, a replay link the replay screen, not a flash of the
  // home screen.
  if (location.hash.startsWith("#join=")) root.dataset.joining = "";
  if (location.hash.startsWith("#replay=")) root.dataset.replaying = "";
  if (/^#(pl|bylink)=/.test(location.hash)) root.dataset.linking = "";
  // In a frame on another site (a blog's embed), the page moves the focus only while the reader
  // is in the frame (py/shell/dom.py, may_take_focus).
  if (window.parent !== window) root.dataset.frame = otherSite() ? "cross-origin" : "same-origin";

  // Embedded in a blog (README, "Embedding"): ?embed=1 for the compact chrome, &theme= to fix
  // the colours, &game= to open straight at one game, &mode= for how it is set up.
  const query = new URLSearchParams(location.search);
  const theme = query.get("theme");
  if (theme === "light" || theme === "dark") root.dataset.theme = theme;
  if (query.get("embed") !== "1") return;
  root.dataset.embed = "";
  // The catalog's games, written by the build (scripts/pages.py) from py/parlour/games/catalog.py
  const games = ["esp", "espeers", "telepathic", "psi-squad"];
  // end of the catalog's games
  const game = query.get("game");
  if (!games.includes(game)) return;
  root.dataset.embedGame = game;
  // A frame opened again (the blog reloaded) goes back to the reader's game in progress, kept on
  // this device under the game's key (py/shell/page.py, mark_resumable: ":finished" once over).
  const saved = `psi-parlour:${game}:pass-and-play`;
  const inProgress = () => {
    try {
      return localStorage.getItem(saved) !== null && localStorage.getItem(`${saved}:finished`) === null;
    } catch {
      return false; // storage refused: nothing kept
    }
  };
  if (!location.hash) {
    const screen = inProgress() ? `#play-${game}` : `#new-${game}`;
    history.replaceState(null, "", `${location.pathname}${location.search}${screen}`);
  }
  const mode = query.get("mode");
  if (mode !== "bots" && mode !== "online") return;
  // The set-up form is plain HTML: against bots, every seat but the first is a medium bot;
  // online, the form opens at its online part.
  document.addEventListener("DOMContentLoaded", () => {
    const form = document.getElementById(`new-${game}`);
    if (!form) return;
    if (mode === "online") {
      const online = form.querySelector("details.online-setup");
      if (online) online.open = true;
      return;
    }
    form.querySelectorAll("select[data-seat-kind]").forEach((kind) => {
      if (kind.dataset.seatKind !== "0") kind.value = "medium";
    });
    // the form's first words say what this game is: one reader against the computer
    const lede = form.querySelector(".lede");
    if (lede) {
      lede.textContent =
        "You against the computer: every other seat is a medium bot (choose another level beside each name). Your secrets stay on your screen: there is no hand-off.";
    }
  });
})();
