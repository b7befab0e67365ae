// Before the first paint: an invite link shows the join screen, a replay link the replay screen,
// not a flash of the home screen.
// (A file, not an inline script: the Content-Security-Policy allows only the site's own scripts.)
if (location.hash.startsWith("#join=")) document.documentElement.dataset.joining = "";
if (location.hash.startsWith("#replay=")) document.documentElement.dataset.replaying = "";
