// The score sheet (/score): steppers, a new layout when the player count or the game changes, and printing.
// The page works without this file too: the numbers can be typed, and the layout button submits.
(function () {
  "use strict";

  function step(button) {
    var input = document.getElementById(button.getAttribute("aria-controls"));
    if (!input) { return; }
    var value = parseInt(input.value, 10);
    if (isNaN(value)) { value = 0; }
    var next = value + parseInt(button.getAttribute("data-step"), 10);
    var least = parseInt(input.min, 10), most = parseInt(input.max, 10);
    if (!isNaN(least) && next < least) { next = least; }
    if (!isNaN(most) && next > most) { next = most; }
    input.value = String(next);
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button.step");
    if (button) { event.preventDefault(); step(button); return; }
    if (event.target.closest("[data-print]")) { window.print(); }
  });

  document.addEventListener("change", function (event) {
    if (!event.target.matches("[data-relayout]")) { return; }
    var form = event.target.form, again = form.querySelector("button.relayout");
    if (form.requestSubmit && again) { form.requestSubmit(again); } else { form.submit(); }
  });

  document.addEventListener("focusin", function (event) {
    if (event.target.id === "sheet-link") { event.target.select(); }
  });
}());
