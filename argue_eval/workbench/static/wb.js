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
    form.dataset.sent = "1";
    if (button && form.requestSubmit) { form.requestSubmit(button); } else { form.submit(); }
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

  // -- keys ---------------------------------------------------------------------------------------------
  function stageKeys(event) {
    var form = document.getElementById("answer-form");
    var key = event.key;
    if (key === "j" || key === "ArrowRight") { follow("next"); return true; }
    if (key === "k" || key === "ArrowLeft") { follow("prev"); return true; }
    if (key === "o") { follow("first-open"); return true; }
    if (!form) { return false; }
    var choices = form.querySelectorAll("input[type=checkbox][name=yes]");
    if (choices.length) {
      if (/^[0-9]$/.test(key)) {
        var box = form.querySelector("input[type=checkbox][data-key='" + key + "']");
        if (box) { box.checked = !box.checked; }
        return true;
      }
      if (key === "n") { submitWith(form, document.getElementById("none")); return true; }
      if (key === "a") {
        var another = document.getElementById("another");
        if (another) { another.open = true; another.querySelector("input[name=answer]").focus(); }
        return true;
      }
      if (key === "Enter") { submitWith(form, document.getElementById("save")); return true; }
      return false;
    }
    if (key === "y" || key === "n") {
      document.getElementById(key === "y" ? "yes" : "no").checked = true;
      submitWith(form, document.getElementById("save"));
      return true;
    }
    if (key === "Enter") {
      if (form.querySelector("input[name=value]:checked")) { submitWith(form, document.getElementById("save")); }
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
    return false;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var page = document.body.dataset.page;
    watchSelection();
    document.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event)) { return; }
      var handled = false;
      if (page === "stage" || page === "adjudicate") { handled = stageKeys(event); }
      else if (page === "authoring") { handled = nuggetKeys(event); }
      if (handled) { event.preventDefault(); }
    });
    document.querySelectorAll("form").forEach(function (form) {
      form.addEventListener("submit", function () { form.dataset.sent = "1"; });
    });
    document.body.dataset.ready = "1";
  });
}());
