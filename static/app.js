// Refusals (4xx) show their message in the flash area instead of being dropped; the poller keeps
// every region fresh. No other script runs on these pages.
document.addEventListener("DOMContentLoaded", function () {
  if (!window.htmx) return;
  htmx.config.responseHandling = [
    {code: "204", swap: false},
    {code: "[23]..", swap: true},
    {code: "4..", swap: true, error: false, target: "#flash"},
    {code: "...", swap: false, error: true}
  ];
  document.body.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail.target && e.detail.target.id === "flash") {
      htmx.trigger(document.body, "changed");
      setTimeout(function () { e.detail.target.innerHTML = ""; }, 6000);
    }
  });
});
