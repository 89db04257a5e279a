// argue-eval workbench: keyboard shortcuts and document text selection. No inline script anywhere: the page's
// Content-Security-Policy allows only this file. It never builds HTML from text (textContent only).
(function () {
  "use strict";

  function typing(event) {
    var t = event.target;
    return t && (t.tagName === "INPUT" && t.type !== "checkbox" && t.type !== "radio" || t.tagName === "TEXTAREA" ||
                 t.tagName === "SELECT" || t.isContentEditable);
  }

  function follow(id) {
    var link = document.getElementById(id);
    if (link) { window.location.href = link.href; }
  }

  function submitWith(form, button) {
    if (form.dataset.sent === "1") { return; }  // one post per page: the next page comes from the server
    if (form.requestSubmit) { form.requestSubmit(button || undefined); } else { form.dataset.sent = "1"; form.submit(); }
  }

  // -- selection in the document: offsets in code points into the text the page shows ----------------
  function codePoints(text) { return Array.from(text).length; }

  function selectionIn(element) {
    var selection = window.getSelection();
    if (!selection || selection.rangeCount === 0 || selection.isCollapsed) { return null; }
    var range = selection.getRangeAt(0);
    if (!element.contains(range.startContainer) || !element.contains(range.endContainer)) { return null; }
    var before = document.createRange();
    before.setStart(element, 0);
    before.setEnd(range.startContainer, range.startOffset);
    var start = codePoints(before.toString());
    var quote = range.toString();
    if (!quote.trim()) { return null; }
    return {start: start, end: start + codePoints(quote), quote: quote};
  }

  function applySelection(found) {
    document.querySelectorAll(".with-selection").forEach(function (holder) {
      var start = holder.querySelector("input[name=start]");
      var end = holder.querySelector("input[name=end]");
      var quote = holder.querySelector("input[name=quote]");
      start.value = found ? String(found.start) : "";
      end.value = found ? String(found.end) : "";
      quote.value = found ? found.quote : "";
      quote.disabled = !found;
    });
    document.querySelectorAll(".fill-selection").forEach(function (input) {
      if (found && (input.value === "" || input.dataset.filled === "1")) {
        input.value = found.quote.replace(/\s+/g, " ").trim();
        input.dataset.filled = "1";
      }
    });
    var shown = document.getElementById("selection");
    if (shown) {
      shown.hidden = !found;
      document.getElementById("selected-text").textContent = found ? found.quote : "";
    }
  }

  function watchSelection() {
    var text = document.getElementById("doc-text");
    if (!text) { return; }
    var update = function () { var found = selectionIn(text); if (found) { applySelection(found); } };
    text.addEventListener("mouseup", update);
    text.addEventListener("keyup", update);
    document.addEventListener("selectionchange", function () {
      var found = selectionIn(text);
      if (found) { applySelection(found); }
    });
  }

  // -- marks in the document: h jumps to the next one (H to the previous), round and round -----------------
  function jumpMark(step) {
    var stops = Array.prototype.slice.call(document.querySelectorAll("#doc-text mark[data-stop]"));
    if (!stops.length) { return; }
    var current = document.querySelector("#doc-text mark.current-mark");
    var at = current ? stops.indexOf(current) : -1;
    var next = stops[((at + step) % stops.length + stops.length) % stops.length];
    if (current) { current.classList.remove("current-mark"); }
    next.classList.add("current-mark");
    next.scrollIntoView({block: "center"});
  }

  function markKeys(key) {
    if (key === "h") { jumpMark(1); return true; }
    if (key === "H") { jumpMark(-1); return true; }
    return false;
  }

  // -- keys ---------------------------------------------------------------------------------------------
  // An answer key acts only on the item on screen, and only a choice made on it is saved: y/n (or a tick, or n
  // for "none of these") choose, Enter saves the choice. A suggestion is shown, never pre-chosen, so an Enter
  // that reaches a page before its reader did saves nothing. Once a save is sent, every answer key is dropped
  // until the server's reply (the next page) is on screen: keys typed ahead never land on an unread item.
  function choose(form) { form.dataset.chosen = "1"; var hint = document.getElementById("choose-first"); if (hint) { hint.hidden = true; } }

  function saving(form) { return form.dataset.sent === "1"; }

  function stageKeys(event) {
    var form = document.getElementById("answer-form");
    var key = event.key;
    if (form && saving(form)) { return true; }  // a save is in flight: nothing acts until its reply is shown
    if (key === "j" || key === "ArrowRight") { follow("next"); return true; }
    if (key === "k" || key === "ArrowLeft") { follow("prev"); return true; }
    if (key === "o") { follow("first-open"); return true; }
    if (key === "d") { follow("by-document"); return true; }
    if (!form) { return false; }
    var choices = form.querySelectorAll("input[type=checkbox][name=yes]");
    if (choices.length) {
      if (/^[0-9]$/.test(key)) {
        var box = form.querySelector("input[type=checkbox][data-key='" + key + "']");
        if (box) {
          box.checked = !box.checked;
          if (box.checked) { form.querySelector("input[name=none]").value = ""; }
          choose(form);
        }
        return true;
      }
      if (key === "n") {
        choices.forEach(function (b) { b.checked = false; });
        form.querySelector("input[name=none]").value = "1";
        choose(form);
        return true;
      }
      if (key === "a") {
        var another = document.getElementById("another");
        if (another) { another.open = true; another.querySelector("input[name=answer]").focus(); }
        return true;
      }
    } else if (key === "y" || key === "n") {
      document.getElementById(key === "y" ? "yes" : "no").checked = true;
      choose(form);
      return true;
    }
    if (key === "Enter") {
      if (form.dataset.chosen === "1") { submitWith(form, document.getElementById("save")); }
      else { var hint = document.getElementById("choose-first"); if (hint) { hint.hidden = false; } }
      return true;
    }
    return false;
  }

  function watchChoices() {
    // a click on a choice is a choice too; a tick after "none of these" takes "none" back
    var form = document.getElementById("answer-form");
    if (!form) { return; }
    form.querySelectorAll("input[type=radio], input[type=checkbox]").forEach(function (input) {
      input.addEventListener("change", function () {
        var none = form.querySelector("input[name=none]");
        if (none && input.type === "checkbox" && input.checked) { none.value = ""; }
        choose(form);
      });
    });
    var noneButton = document.getElementById("none");
    if (noneButton) {
      noneButton.addEventListener("click", function () {
        form.querySelectorAll("input[type=checkbox][name=yes]").forEach(function (b) { b.checked = false; });
        form.querySelector("input[name=none]").value = "1";
        choose(form);
      });
    }
    form.addEventListener("submit", function (event) {
      if (saving(form)) { event.preventDefault(); return; }
      if (form.dataset.chosen !== "1") {
        event.preventDefault();
        var hint = document.getElementById("choose-first");
        if (hint) { hint.hidden = false; }
        return;
      }
      form.dataset.sent = "1";
      var status = document.getElementById("saving");
      if (status) { status.hidden = false; }
    });
  }

  // the per-document page: the keys act on the row marked current, all on screen at once
  function documentKeys(event) {
    var form = document.getElementById("answer-form");
    var key = event.key;
    if (!form) { return false; }
    if (saving(form)) { return true; }
    var rows = Array.prototype.slice.call(form.querySelectorAll("li.doc-row"));
    var current = form.querySelector("li.doc-row.current");
    var at = rows.indexOf(current);
    function move(to) {
      if (to < 0 || to >= rows.length) { return; }
      if (current) { current.classList.remove("current"); }
      current = rows[to];
      current.classList.add("current");
      current.scrollIntoView({block: "nearest"});
    }
    if (key === "j" || key === "ArrowDown") { move(at + 1); return true; }
    if (key === "k" || key === "ArrowUp") { move(at - 1); return true; }
    if ((key === "y" || key === "n") && current) {
      current.querySelector("input[type=radio][value=" + (key === "y" ? "yes" : "no") + "]").checked = true;
      choose(form);
      for (var k = at + 1; k < rows.length; k++) {
        if (!rows[k].querySelector("input[type=radio]:checked")) { move(k); break; }
      }
      return true;
    }
    if (key === "Enter") {
      if (form.dataset.chosen === "1") { submitWith(form, document.getElementById("save")); }
      else { document.getElementById("choose-first").hidden = false; }
      return true;
    }
    return false;
  }

  function nuggetKeys(event) {
    var key = event.key;
    if (key === "j") { follow("next"); return true; }
    if (key === "k") { follow("prev"); return true; }
    if (key === "/") { var s = document.getElementById("search"); if (s) { s.focus(); s.select(); } return true; }
    if (key === "q") { var q = document.getElementById("new-question"); if (q) { q.focus(); } return true; }
    if (key === "e") {
      var folds = Array.prototype.slice.call(document.querySelectorAll("details.nugget-fold"));
      var open = folds.some(function (d) { return !d.open; });
      folds.forEach(function (d) { d.open = open; });
      return true;
    }
    return false;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var page = document.body.dataset.page;
    watchSelection();
    watchChoices();
    document.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event)) { return; }
      var handled = false;
      if (page === "stage" || page === "adjudicate") { handled = stageKeys(event); }
      else if (page === "authoring") { handled = nuggetKeys(event); }
      else if (page === "bydoc") { handled = documentKeys(event); }
      if (!handled && page !== "error") { handled = markKeys(event.key); }
      if (handled) { event.preventDefault(); }
    });
    document.querySelectorAll("form").forEach(function (form) {
      if (form.id !== "answer-form") { form.addEventListener("submit", function () { form.dataset.sent = "1"; }); }
    });
    document.body.dataset.ready = "1";
  });
}());
