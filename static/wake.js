// A phone whose seat is in a game keeps its screen on (issue 25 item 8), with a visible switch.
//
// Where the page is a secure context (https, or the companion on this very device) the Screen Wake Lock API
// holds the screen; it is let go whenever the page is hidden, so it is asked again when the page comes back.
// Over plain http on the table's Wi-Fi that API does not exist: a tiny muted video (static/awake/, made
// for this project, 16×16 black, no sound) plays in a loop out of sight, which keeps phones from dimming.
// Either way it stops once the game is over (#seat_status carries data-over; the switch then says the screen
// may sleep, and rests) or the player switches it off; the choice is remembered on this device. No other site is asked for anything.
(function () {
  "use strict";
  var KEY = "messina-awake";
  var button = document.getElementById("wake");
  if (!button) return;
  var lock = null, video = null;

  function wanted() {
    return localStorage.getItem(KEY) !== "off" && !over();
  }

  function secureLock() {
    return window.isSecureContext && navigator.wakeLock && typeof navigator.wakeLock.request === "function";
  }

  function show(on) {
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = button.getAttribute(on ? "data-on" : "data-off");
  }

  function videoElement() {
    if (video) return video;
    video = document.createElement("video");
    video.id = "awake-video";
    video.muted = true;
    video.loop = true;
    video.setAttribute("muted", "");
    video.setAttribute("playsinline", "");
    video.setAttribute("aria-hidden", "true");
    ["webm", "mp4"].forEach(function (kind) {
      var source = document.createElement("source");
      source.src = button.getAttribute("data-" + kind);
      source.type = "video/" + kind;
      video.appendChild(source);
    });
    document.body.appendChild(video);
    return video;
  }

  function hold() {
    if (!wanted() || document.visibilityState !== "visible") return;
    if (secureLock()) {
      if (lock) return;
      navigator.wakeLock.request("screen").then(function (l) {
        lock = l;
        lock.addEventListener("release", function () { lock = null; });
      }).catch(function () { lock = null; });  // refused (battery saver): the switch stays on, we try again
      return;
    }
    var v = videoElement();
    if (v.paused) {
      var played = v.play();
      if (played && played.catch) played.catch(function () {});  // needs a tap first: the next tap tries again
    }
  }

  function letGo() {
    if (lock) { lock.release(); lock = null; }
    if (video && !video.paused) video.pause();
  }

  function over() {
    return !!document.querySelector("#seat_status[data-over]");
  }

  function refresh() {
    var on = wanted();
    show(on);  // after game over it says what it does: the screen may sleep
    button.disabled = over();  // and there is nothing left to hold it for
    if (on) hold(); else letGo();
  }

  button.hidden = false;
  button.addEventListener("click", function () {
    localStorage.setItem(KEY, button.getAttribute("aria-pressed") === "true" ? "off" : "on");
    refresh();
  });
  document.addEventListener("visibilitychange", refresh);
  document.addEventListener("click", hold, true);  // a tap is what lets a video play on a strict phone
  document.addEventListener("htmx:afterSettle", refresh);  // game over arrives with the news
  refresh();
})();
