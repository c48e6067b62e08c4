// Rules at a tap (companion/web/rules/routes.py). Every rule reference on a screen is a link to /rules#ID; here a
// tap on one opens that rule in a dialog over the screen instead, so a phone keeps its question, its
// scrolling and its news behind it, and one tap on the large Close button (or outside the dialog, or
// Escape) brings the screen back as it was. The rule comes from this server (/rules/ID, drawn in the
// reader's language); if it cannot be fetched, the link is followed as it would be without this script.
// A rule link inside the dialog opens that rule in its place.
//
// On /rules the search box filters the rules as one types: a rule stays when its words contain every
// word typed, in any case and with or without accents; a topic with no rule left is hidden.
(function () {
  "use strict";

  function plain(text) {  // lower case, accents off: "Église" is found by "eglise"
    return text.toLowerCase().normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  function dialog() {
    var box = document.getElementById("rule-dialog");
    if (box) return box;
    box = document.createElement("dialog");
    box.id = "rule-dialog";
    box.className = "rule-dialog";
    box.addEventListener("click", function (e) {
      if (e.target === box || (e.target.closest && e.target.closest("[data-close]"))) box.close();
    });
    box.addEventListener("close", function () {
      var back = box.opener;
      box.opener = null;
      if (back && document.contains(back)) back.focus({preventScroll: true});
    });
    document.body.appendChild(box);
    return box;
  }

  function show(html, link) {
    var rule = new DOMParser().parseFromString(html, "text/html").getElementById("rule-explained");
    if (!rule) return false;
    var box = dialog();
    box.replaceChildren(document.importNode(rule, true));
    if (!box.open) {
      box.opener = link;
      box.showModal();
    }
    box.scrollTop = 0;
    var close = box.querySelector("[data-close]");
    if (close) close.focus({preventScroll: true});
    return true;
  }

  function open(link, id) {
    var xhr = new XMLHttpRequest();
    xhr.open("GET", link.pathname.replace(/\/+$/, "") + "/" + encodeURIComponent(id));
    xhr.setRequestHeader("HX-Request", "true");  // the dialog's content, not a whole page
    xhr.onload = function () {
      if (!(xhr.status === 200 && show(xhr.responseText, link))) window.location.href = link.href;
    };
    xhr.onerror = function () { window.location.href = link.href; };
    xhr.send();
  }

  document.addEventListener("click", function (e) {
    var link = e.target.closest && e.target.closest("a.rule");
    if (!link || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    var id = decodeURIComponent(link.hash.slice(1));
    if (!id) return;
    if (document.body.classList.contains("rules")) {  // on /rules the rule is on the page: let the search show it
      var search = document.getElementById("rule-search");
      if (search && search.value) { search.value = ""; filter(search); }
      return;
    }
    e.preventDefault();
    open(link, id);
  });

  function filter(box) {
    var words = plain(box.value).split(/\s+/).filter(Boolean);
    var shown = 0;
    document.querySelectorAll(".rule-topic").forEach(function (topic) {
      var left = 0;
      topic.querySelectorAll(".rule-entry").forEach(function (rule) {
        if (!rule.searchText) rule.searchText = plain(rule.id + " " + rule.textContent);
        rule.hidden = !words.every(function (w) { return rule.searchText.indexOf(w) >= 0; });
        if (!rule.hidden) left += 1;
      });
      topic.hidden = !left;
      shown += left;
    });
    var none = document.getElementById("rule-none");
    if (none) none.hidden = shown > 0;
    var topics = document.querySelector(".rule-topics");  // while searching, the rules found come first
    if (topics) topics.hidden = words.length > 0;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var search = document.getElementById("rule-search");
    if (!search) return;
    document.getElementById("rule-search-box").hidden = false;
    search.addEventListener("input", function () { filter(search); });
    if (search.value) filter(search);  // a value the browser kept on going back
  });
})();
