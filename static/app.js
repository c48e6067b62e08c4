// How a screen stays current, and how it stops; and a table draw's filter. No other script runs on these pages.
//
// The page's "anything new?" question (#poll, marked data-every) is asked again only from here: data-every
// ms after an answer, and after a failure later and later, with jitter so screens that lost the server
// together do not come back together: while the server cannot be reached (no answer, or a proxy's 502/504:
// it is being started again) about 1 s, 2 s, then every 1.25-2.5 s, so a page shows the game again within
// 3 s of the server's return; after any other failure (5xx, 429, a refusal) 1 s, 2 s, 4 s … up to 30 s.
// The first question after a failure asks to be answered at once (r=1, companion/web/news.py), so the
// page's "connection lost" line goes as soon as the server answers, moves or not. A refused tap shows its message
// and refreshes the regions once; a region's failed refresh asks nothing more. An answer marked
// X-Seat-Moved (this phone no longer holds the seat) replaces the page with its message, and the page
// never asks again.
//
// A tap (a form or map spot whose hx-target is #poll) is answered with the screen's whole news: the new
// question and every region. So while a tap is on its way the page's own question is called back and not
// asked again: its answer would bring the same regions a second time. The tap's end asks it again.
//
// After news the question goes out again at once, since the server holds it until the next move: a move
// made just after another shows without waiting data-every. That is news the question waited for (the
// server marks it X-Held), news that moved the page to a later version (a move made while the page was
// between two questions: the page is current now, so its next question waits at the server), or a tap's
// answer. Anything else the server gave at once (the page and the server disagree on what it shows, with
// no move between) waits data-every, so such a page cannot ask in a tight loop. A page's first question
// goes out at once too: the page was drawn current, so the server holds it.
(function () {
  "use strict";
  var FIRST_RETRY_MS = 1000, LONGEST_RETRY_MS = 30000, UNREACHABLE_RETRY_MS = 2500, FLASH_MS = 6000;
  var LONGEST_MESSAGE = 300;
  var timers = {}, failures = {}, stopped = false, flashTimer = null;
  var taps = 0, question = null;  // taps on their way; the request of the page's question now out

  function askAgain(id, ms) {
    clearTimeout(timers[id]);
    timers[id] = setTimeout(function () {
      delete timers[id];
      var elt = document.getElementById(id);
      if (id === "poll" && taps) return;  // the tap's answer is this page's news; its end asks again
      if (!stopped && elt && elt.hasAttribute("data-every") && window.htmx) htmx.trigger(elt, "ask");
    }, ms);
  }

  function every(id) {
    var elt = document.getElementById(id);
    var ms = elt ? parseInt(elt.getAttribute("data-every"), 10) : NaN;
    return ms > 0 ? ms : null;
  }

  function version() {  // the game's version the page shows (its question's data-version)
    var poll = document.getElementById("poll");
    return poll ? parseInt(poll.getAttribute("data-version"), 10) || 0 : 0;
  }

  function soon() {  // "at once": as soon as htmx has settled the question just swapped in (it listens then)
    return (window.htmx ? htmx.config.defaultSettleDelay : 20) + 5;
  }

  function unreachable(xhr) {  // nothing answered: the server is down or being started again
    return !xhr.status || xhr.status === 502 || xhr.status === 504;
  }

  function retryDelay(id, xhr) {
    failures[id] = (failures[id] || 0) + 1;
    var longest = unreachable(xhr) ? UNREACHABLE_RETRY_MS : LONGEST_RETRY_MS;
    var ceiling = Math.min(longest, FIRST_RETRY_MS * Math.pow(2, failures[id] - 1));
    return ceiling / 2 + Math.random() * ceiling / 2;
  }

  function said(name) {  // a phrase the server translated for us (templates/partials/_poll.html)
    var poll = document.getElementById("poll");
    return (poll && poll.getAttribute(name)) || "";
  }

  function message(xhr, lost) {  // the server's refusal as plain text (never inserted as HTML)
    var saidWhy = xhr.status === 503 || xhr.status === 507;  // the disk failed: the server says what was lost
    if (!xhr.status || (xhr.status >= 500 && !saidWhy) || xhr.status === 429) return said(lost);
    var text = new DOMParser().parseFromString(xhr.responseText || "", "text/html").body.textContent;
    text = text.replace(/\s+/g, " ").trim().slice(0, LONGEST_MESSAGE);
    return text || said(lost);
  }

  function flash(text) {
    var box = document.getElementById("flash");
    if (!box || !text) return;
    var p = document.createElement("p");
    p.className = "flash-error";
    p.textContent = text;
    box.replaceChildren(p);
    clearTimeout(flashTimer);
    flashTimer = setTimeout(function () { box.replaceChildren(); }, FLASH_MS);
  }

  function trouble(xhr) {  // one quiet line while the page cannot get its news; gone with the next answer
    var line = document.querySelector("#poll .offline");
    if (!line) return;
    if (xhr) line.textContent = message(xhr, "data-lost");
    line.hidden = !xhr;
  }

  function stop(xhr) {
    stopped = true;
    Object.keys(timers).forEach(function (id) { clearTimeout(timers[id]); });
    var poll = document.getElementById("poll");
    if (poll && window.htmx) htmx.trigger(poll, "htmx:abort");  // frees the question waiting at the server
    var answer = new DOMParser().parseFromString(xhr.responseText || "", "text/html").getElementById("moved");
    var main = document.querySelector("main");
    if (main) main.replaceChildren(answer ? document.importNode(answer, true)
                                          : document.createTextNode(message(xhr, "data-lost")));
    document.querySelectorAll("form, button, input, select, [hx-get], [hx-post]").forEach(function (el) {
      el.remove();
    });
    var box = document.getElementById("flash");
    if (box) box.replaceChildren();
  }

  function isTap(elt) {
    return elt.getAttribute("hx-target") === "#poll";
  }

  function tapping() {  // call back the page's question: the tap's answer brings the news
    taps += 1;
    clearTimeout(timers.poll);
    delete timers.poll;
    if (question) {
      question.calledBack = true;
      htmx.trigger(document.getElementById("poll") || document.body, "htmx:abort");
    }
  }

  function tapped(xhr, ok) {
    taps -= 1;
    if (!ok) {
      flash(message(xhr, "data-unsent"));
      htmx.trigger(document.body, "changed");
    }
    if (taps) return;
    var lost = !xhr.status || xhr.status >= 500;  // no answer: the question finds out when the server is back
    askAgain("poll", lost ? retryDelay("poll", xhr) : ok ? soon() : every("poll"));
  }

  function finished(elt, verb, xhr) {
    if (xhr === question) question = null;
    if (stopped || xhr.calledBack) return;
    if (xhr.getResponseHeader("X-Seat-Moved")) return stop(xhr);
    var ok = xhr.status >= 200 && xhr.status < 300;
    if (isTap(elt)) {
      tapped(xhr, ok);
    } else if (elt.id && elt.hasAttribute("data-every")) {
      if (ok) failures[elt.id] = 0;
      if (elt.id === "poll") trouble(ok ? null : xhr);
      var waited = elt.id === "poll" && xhr.status === 200 &&
        (xhr.getResponseHeader("X-Held") || version() > xhr.shownVersion);
      var wait = ok ? (waited ? soon() : every(elt.id)) : retryDelay(elt.id, xhr);
      if (wait !== null) askAgain(elt.id, wait);
    } else if (!ok && verb !== "get") {
      // the player's own tap or form was refused: say why, and show the screen as it is now, once
      flash(message(xhr, "data-unsent"));
      htmx.trigger(document.body, "changed");
    }
  }

  // every request ends in "loadend" (answered, failed, timed out or aborted), even when its element has
  // been swapped out of the page meanwhile
  document.addEventListener("htmx:beforeSend", function (e) {
    var elt = e.detail.elt, verb = e.detail.requestConfig.verb, xhr = e.detail.xhr;
    if (elt.id === "poll") {
      question = xhr;
      xhr.shownVersion = version();  // what the page showed when it asked
    }
    if (isTap(elt)) tapping();
    xhr.addEventListener("loadend", function () { finished(elt, verb, xhr); });
  });

  // What this page shows goes with its requests (web/regions.py `shown`, web/library.py `added`): each
  // live region's data-shows with its question and its taps, so the answer brings only the regions that
  // changed; and the pictures its library holds, so an answer brings only the ones it lacks.
  function shows() {
    return Array.prototype.map.call(document.querySelectorAll("[data-shows][id]"), function (el) {
      return el.id + ":" + el.getAttribute("data-shows");
    }).join(",");
  }

  function pictures() {
    return Array.prototype.map.call(document.querySelectorAll("#pictures > symbol[id]"), function (el) {
      return el.id;
    }).join(".");
  }

  // The one-letter query keys (k, r, f here; v, j, p, t in partials/_poll.html) are named in companion/web/wire.py.
  document.addEventListener("htmx:configRequest", function (e) {
    var elt = e.detail.elt;
    if (elt.id === "poll" || isTap(elt)) e.detail.parameters.k = shows();
    if (elt.id === "poll" && failures.poll) e.detail.parameters.r = "1";  // after a failure: answer at once
    if (document.getElementById("pictures")) e.detail.parameters.f = pictures();
  });

  // The host's log gains a move's rows on top (host/_log_added.html); it keeps as many as a page shows.
  document.addEventListener("htmx:afterSettle", function () {
    var log = document.getElementById("log-list");
    var most = log ? parseInt(log.getAttribute("data-most"), 10) : 0;
    while (most > 0 && log.children.length > most) log.removeChild(log.lastElementChild);
  });

  document.addEventListener("htmx:beforeSwap", function (e) {
    if (stopped || e.detail.xhr.getResponseHeader("X-Seat-Moved")) e.detail.shouldSwap = false;
  });

  // A table draw's filter (templates/partials/_option.html): show only the hexes whose marks (data-colour,
  // data-rat, data-action: words apart) hold every chosen value; the choice "any" (value "") holds all.
  // Options that are no hex (a harbor, "recall a lieutenant") carry no marks and stay.
  document.addEventListener("change", function (e) {
    var box = e.target.closest && e.target.closest(".pick-filter");
    if (!box) return;
    var chosen = Array.prototype.filter.call(box.querySelectorAll("input:checked"), function (i) { return i.value; });
    box.parentNode.querySelectorAll(".menu > form").forEach(function (form) {
      form.hidden = form.hasAttribute("data-colour") && !chosen.every(function (i) {
        return (" " + (form.getAttribute("data-" + i.name) || "") + " ").indexOf(" " + i.value + " ") >= 0;
      });
    });
  });

  // After game over a phone shows its result where the player looks: the first time it appears (on the
  // page or by news), the page scrolls to it once; later news leaves the player's scrolling alone.
  var resultShown = false;
  function showResult() {
    var result = document.querySelector("[data-scroll-once]");
    if (!result || resultShown) return;
    resultShown = true;
    result.scrollIntoView({block: "center"});
  }
  document.addEventListener("htmx:afterSettle", showResult);

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-every][id]").forEach(function (elt) {
      askAgain(elt.id, elt.id === "poll" ? soon() : every(elt.id));
    });
    showResult();
  });
})();
