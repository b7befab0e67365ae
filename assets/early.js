// Before the first paint: an invite link shows the join screen, not a flash of the home screen.
// (A file, not an inline script: the Content-Security-Policy allows only the site's own scripts.)
if (location.hash.startsWith("#join=")) document.documentElement.dataset.joining = "";
