// "Go back" on an error page returns to the page before. The Content-Security-Policy runs no inline
// script, so this lives here; without a page to go back to, the link's own address is used (this
// phone's seat, or the start page).
document.addEventListener("click", function (e) {
  var link = e.target.closest && e.target.closest("a[data-back]");
  if (link && window.history.length > 1) {
    e.preventDefault();
    window.history.back();
  }
});
