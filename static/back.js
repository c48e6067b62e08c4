// "Go back" on an error page returns to the page before, with its form as it was typed (the new-game
// form after a refused name). The Content-Security-Policy runs no inline script, so it lives here;
// without a page to go back to, the link's own address (this phone's seat, or the start) is used.
document.addEventListener("click", function (e) {
  var link = e.target.closest && e.target.closest("a[data-back]");
  if (link && window.history.length > 1) {
    e.preventDefault();
    window.history.back();
  }
});
