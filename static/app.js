// Refusals (4xx) show their message in the flash area instead of being dropped, and every region
// refreshes; the poller keeps the screen current. No other script runs on these pages.
document.addEventListener("htmx:beforeSwap", function (e) {
  var status = e.detail.xhr.status;
  if ((status >= 400 && status < 500) || status === 503 || status === 507) {  // 503/507: the disk failed, nothing saved
    var flash = document.getElementById("flash");
    e.detail.shouldSwap = true;
    e.detail.isError = false;
    e.detail.target = flash;
    e.detail.swapOverride = "innerHTML";
    setTimeout(function () { flash.innerHTML = ""; }, 6000);
    if (window.htmx) htmx.trigger(document.body, "changed");
  }
});
