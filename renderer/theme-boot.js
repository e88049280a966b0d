// Runs as a classic, blocking script in <head>, before the first paint: a user who chose Light or
// Dark in Settings never sees a flash of the other theme. Kept tiny and dependency-free; the names
// must match renderer/lib/theme.ts (test/unit/renderer/theme-boot.test.ts checks that they do).
/* global window, document */
(function () {
  try {
    var choice = window.localStorage.getItem('pinfold.theme');
    if (choice === 'light' || choice === 'dark') document.documentElement.setAttribute('data-theme', choice);
  } catch {
    // Storage can be disabled; the page then follows the system theme.
  }
})();
