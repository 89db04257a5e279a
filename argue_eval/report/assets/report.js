/* argue-eval HTML report: renders the embedded data; no network, no external asset.
 * Report text is untrusted: every string reaches the page through textContent or an attribute value,
 * never through innerHTML. Views are built when first shown; topic blocks are parsed when first needed. */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  var DATA = JSON.parse(document.getElementById("report-data").textContent);
  var blocks = Object.create(null);
  var state = { measure: DATA.measure, sort: null, desc: true, topicSort: "id" };

  // ---------------------------------------------------------------- helpers
  function el(tag, props) {
    var node = document.createElement(tag);
    if (props) {
      Object.keys(props).forEach(function (key) {
        var value = props[key];
        if (value === null || value === undefined) return;
        if (key === "text") node.textContent = value;
        else if (key === "cls") node.className = value;
        else if (key.slice(0, 2) === "on") node.addEventListener(key.slice(2), value);
        else node.setAttribute(key, value);
      });
    }
    for (var k = 2; k < arguments.length; k++) append(node, arguments[k]);
    return node;
  }
  function append(node) {
    for (var k = 1; k < arguments.length; k++) {
      var child = arguments[k];
      if (child === null || child === undefined || child === false) continue;
      if (Array.isArray(child)) child.forEach(function (c) { append(node, c); });
      else node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }
  function svg(tag, attrs) {
    var node = document.createElementNS(SVG_NS, tag);
    Object.keys(attrs || {}).forEach(function (key) { node.setAttribute(key, attrs[key]); });
    return node;
  }
  function fmt(value, digits) {
    if (value === null || value === undefined) return "n/a";
    return value.toFixed(digits === undefined ? 3 : digits);
  }
  // run, topic and document ids come from the input: look them up as own keys only ("constructor" is a fine id)
  function own(object, key) { return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined; }
  function plural(n, noun) { return n + " " + noun + (n === 1 ? "" : "s"); }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); return node; }
  function measureLabel(name) {
    for (var k = 0; k < DATA.measures.length; k++) if (DATA.measures[k].name === name) return DATA.measures[k].label;
    return name;
  }
  function mean(list) {
    var sum = 0, n = 0;
    list.forEach(function (v) { if (v !== null) { sum += v; n++; } });
    return n ? sum / n : null;
  }
  function runIndex(run) { return DATA.runs.indexOf(run); }
  function topicIndex(topic) { return DATA.topics.indexOf(topic); }
  function block(topic) {
    if (!(topic in blocks)) {
      var node = document.getElementById("topic-" + topicIndex(topic));
      blocks[topic] = node ? JSON.parse(node.textContent) : null;
    }
    return blocks[topic];
  }
  function hasReport(run, topic) {
    var runs = own(DATA.reported, topic);
    return !!runs && runs.indexOf(run) >= 0;
  }
  function firstTopicOf(run) {
    for (var t = 0; t < DATA.topics.length; t++) if (hasReport(run, DATA.topics[t])) return DATA.topics[t];
    return null;
  }
  function reportHash(run, topic) { return "#report/" + encodeURIComponent(run) + "/" + encodeURIComponent(topic); }
  function nuggetHash(topic) { return "#nuggets/" + encodeURIComponent(topic); }
  function heat(value) {
    // white (0) to dark teal (1); values outside [0, 1] are clamped for colour only
    if (value === null) return "var(--missing)";
    var v = Math.max(0, Math.min(1, value));
    return "hsl(" + (190 - 20 * v).toFixed(0) + ", " + (35 + 40 * v).toFixed(0) + "%, " + (97 - 55 * v).toFixed(0) + "%)";
  }
  function inkFor(value) { return value !== null && value > 0.62 ? "#fff" : "#1b1f23"; }
  function leaderOrder(measure) {
    var stats = DATA.stats[measure];
    var rank = function (k) { return stats.rank[k] === null ? Infinity : stats.rank[k]; };
    return DATA.runs.map(function (_, k) { return k; }).sort(function (a, b) {
      return rank(a) - rank(b) || (DATA.runs[a] < DATA.runs[b] ? -1 : 1);
    });
  }
  function measureSelect(onchange) {
    var select = el("select", { "aria-label": "measure", cls: "measure-select" });
    DATA.measures.forEach(function (m) {
      var option = el("option", { value: m.name, text: m.label });
      if (m.name === state.measure) option.selected = true;
      select.appendChild(option);
    });
    select.addEventListener("change", function () { state.measure = select.value; state.sort = null; onchange(); });
    return select;
  }
  function testWords() {
    var s = DATA.settings;
    return s.significance + ", \u03b1 = " + s.alpha + (s.test === "t" ? "" : ", " + s.resamples + " " +
      (s.test === "tukey" ? "permutations" : "sign vectors (or all of them when fewer)") + ", seed " + s.seed);
  }
  // the compare call that prints the same decisions for the shown measure
  function compareCommand() {
    var s = DATA.settings;
    return "argue-eval compare " + s.scores + " -m " + state.measure + (s.baseline !== null ? " --baseline " + s.baseline : "") +
      " --test " + s.test + (s.test === "tukey" ? "" : " --correction " + s.correction) + " --alpha " + s.alpha +
      " --resamples " + s.resamples + " --seed " + s.seed;
  }
  function significanceText() {
    var s = DATA.settings, level = Math.round(s.confidence * 100) + "%";
    var parts = [el("span", null, "Macro: the mean over " + plural(DATA.topics.length, "topic") +
      " (a missing topic counts 0) with its " + level + " BCa bootstrap interval (" + s.resamples + " resamples, seed " + s.seed +
      "); micro: the score table's ratio of counts summed over topics, where it has one (a topic a run did not " +
      "answer adds nothing to either count). Click a column title to sort.")];
    var test = [];
    if (DATA.runs.length < 2) {
      test.push("One run: nothing to test it against, so no significance column.");
    } else {
      test.push(s.baseline !== null ? "+ / \u2212: significantly above / below the baseline " + s.baseline + ". " :
        "Groups: runs that share a letter are not significantly different; runs with no letter in common are " +
        "(hover a group for the runs it beats). ");
      test.push(el("span", { id: "significance-test" }, "Test: " + testWords() + "."), " The same decisions, pair by pair, as ",
        el("code", { cls: "command" }, compareCommand()), s.runs_chosen ? " on a score table of only the runs shown." : ".");
    }
    return [el("p", { cls: "explain" }, parts), el("p", { cls: "explain", id: "significance" }, test)];
  }

  // ---------------------------------------------------------------- leaderboard
  function microOf(measure, k) {
    var value = own(own(DATA.aggregates, DATA.runs[k]) || {}, measure + "_micro");
    return value === undefined ? null : value;
  }
  function hasMicro(measure) {
    return DATA.runs.some(function (_, k) { return microOf(measure, k) !== null; });
  }
  function renderLeaderboard(root) {
    clear(root);
    var stats = DATA.stats[state.measure];
    var measures = DATA.measures.map(function (m) { return m.name; });
    var micro = {};
    measures.forEach(function (m) { micro[m] = hasMicro(m); });
    // a column key: "m" (macro mean of measure m) or "m" + MICRO; "run" sorts by run id
    var MICRO = "\u0001micro";
    function valueOf(key, k) {
      if (key === "run") return DATA.runs[k];
      var at = key.indexOf(MICRO);
      return at > 0 ? microOf(key.slice(0, at), k) : DATA.stats[key].mean[k];
    }
    var rows = leaderOrder(state.measure);
    if (state.sort !== null) {
      var key = state.sort, dir = state.desc ? -1 : 1;
      rows = rows.slice().sort(function (a, b) {
        var x = valueOf(key, a), y = valueOf(key, b);
        if (x === y) return (stats.rank[a] === null ? Infinity : stats.rank[a]) - (stats.rank[b] === null ? Infinity : stats.rank[b]) || 0;
        if (x === null) return 1;
        if (y === null) return -1;
        return (x < y ? -1 : 1) * dir;
      });
    }
    // the bars' scale: the intervals' range widened to tenths, so close runs stay apart
    var lo = Infinity, hi = -Infinity;
    rows.forEach(function (k) {
      [stats.low[k], stats.mean[k], stats.high[k]].forEach(function (v) {
        if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
      });
    });
    if (!isFinite(lo)) { lo = 0; hi = 1; }
    lo = Math.floor(lo * 10 + 1e-9) / 10;
    hi = Math.ceil(hi * 10 - 1e-9) / 10;
    if (hi - lo < 0.1) hi = lo + 0.1;
    var baseline = DATA.settings.baseline;
    var single = DATA.runs.length < 2;  // no pair to test: no group / vs-baseline column
    var baseMean = baseline !== null ? stats.mean[runIndex(baseline)] : null;

    function header(label, key, title, cls) {
      var active = state.sort === key || (state.sort === null && key === state.measure);
      var th = el("th", { cls: "sortable" + (cls ? " " + cls : "") + (active ? " sorted" : ""), title: title || "sort by " + label, scope: "col" },
        label, active ? (state.sort === null || state.desc ? " \u25be" : " \u25b4") : "");
      th.addEventListener("click", function () {
        if (state.sort === key) state.desc = !state.desc;
        else { state.sort = key; state.desc = key !== "run"; }
        renderLeaderboard(root);
      });
      return th;
    }
    var axis = svg("svg", { width: 180, height: 16, "class": "axis", "aria-hidden": "true" });
    [lo, (lo + hi) / 2, hi].forEach(function (tick, n) {
      var x = 6 + (tick - lo) / (hi - lo) * 168;
      axis.appendChild(svg("line", { x1: x, x2: x, y1: 11, y2: 16, stroke: "#888" }));
      var label = svg("text", { x: x, y: 9, "text-anchor": ["start", "middle", "end"][n] });
      label.textContent = String(Math.round(tick * 100) / 100);
      axis.appendChild(label);
    });
    var label = measureLabel(state.measure);
    var runHead = header("run", "run", "sort by run id", "run-head");
    runHead.setAttribute("rowspan", "2");
    // two header rows: the measures, then macro / micro under each measure that has a micro average
    var top = el("tr", null,
      el("th", { scope: "col", rowspan: "2", title: "rank by " + label }, "#"),
      runHead,
      el("th", { scope: "colgroup", colspan: micro[state.measure] ? "2" : "1", cls: "num group-head" }, label),
      el("th", { scope: "col", rowspan: "2", cls: "interval-head" }, axis),
      single ? null : el("th", { scope: "col", rowspan: "2", title: baseline !== null ? "versus the baseline" : "letter groups: a shared letter means not significantly different" },
        baseline !== null ? "vs " + baseline : "group"),
      measures.map(function (m) {
        return el("th", { scope: "colgroup", colspan: micro[m] ? "2" : "1", cls: "measure-col group-head" + (m === state.measure ? " current" : "") }, measureLabel(m));
      }));
    var sub = el("tr", { cls: "sub-head" });
    function subHeads(m, main) {
      append(sub, header("macro", m, "sort by " + measureLabel(m) + ": mean over topics (macro)", "num" + (main ? "" : " measure-col")));
      if (micro[m]) append(sub, header("micro", m + MICRO, "sort by " + measureLabel(m) + ": ratio of summed counts (micro)", "num micro" + (main ? "" : " measure-col")));
    }
    subHeads(state.measure, true);
    measures.forEach(function (m) { subHeads(m, false); });
    var table = el("table", { cls: "leaderboard", id: "leaderboard-table" }, el("thead", null, top, sub));
    var body = el("tbody");
    rows.forEach(function (k) {
      var bar = svg("svg", { width: 180, height: 16, "class": "interval", role: "img" });
      var scale = function (v) { return 6 + (v - lo) / (hi - lo) * 168; };
      if (baseMean !== null) bar.appendChild(svg("line", { x1: scale(baseMean), x2: scale(baseMean), y1: 0, y2: 16, "class": "base-line" }));
      if (stats.low[k] !== null && stats.high[k] !== null) {
        bar.appendChild(svg("line", { x1: scale(stats.low[k]), x2: scale(stats.high[k]), y1: 8, y2: 8, "class": "ci" }));
        [stats.low[k], stats.high[k]].forEach(function (v) {
          bar.appendChild(svg("line", { x1: scale(v), x2: scale(v), y1: 4, y2: 12, "class": "ci" }));
        });
      }
      if (stats.mean[k] !== null) bar.appendChild(svg("circle", { cx: scale(stats.mean[k]), cy: 8, r: 3.5, "class": "dot" }));
      var tip = svg("title");
      tip.textContent = fmt(stats.mean[k], 4) + " [" + fmt(stats.low[k], 4) + ", " + fmt(stats.high[k], 4) + "]";
      bar.appendChild(tip);
      var mark = baseline !== null ? stats.mark[k] : stats.group[k];
      var markCell = el("td", { cls: "mark" + (mark === "+" ? " up" : mark === "-" ? " down" : "") },
        mark === "-" ? "\u2212" : mark || "");
      if (baseline !== null && stats.p[k] !== null) {
        var correction = DATA.settings.correction;
        markCell.title = (correction === "none" ? "p" : ({ holm: "Holm", bh: "Benjamini-Hochberg", bonferroni: "Bonferroni" }[correction] ||
          correction) + "-adjusted p") + " = " + fmt(stats.p[k], 4);
      }
      if (baseline === null && stats.better.length) {
        var beats = stats.better[k].map(function (j) { return DATA.runs[j]; });
        markCell.title = DATA.runs[k] + (beats.length ? " is significantly better than " + beats.join(", ") : " is significantly better than no run");
        markCell.setAttribute("data-better", beats.join(" "));
      }
      var cells = [];
      function valueCells(m, main) {
        cells.push(el("td", { cls: "num" + (main ? " main" : "") }, fmt(DATA.stats[m].mean[k])));
        if (micro[m]) cells.push(el("td", { cls: "num micro" + (main ? " main-micro" : "") }, fmt(microOf(m, k))));
      }
      valueCells(state.measure, true);
      var lead = cells.splice(0, cells.length);
      measures.forEach(function (m) { valueCells(m, false); });
      body.appendChild(el("tr", { "data-run": DATA.runs[k] },
        el("td", { cls: "num rank" }, stats.rank[k] === null ? "\u2013" : String(stats.rank[k])),
        el("td", { cls: "run" }, firstTopicOf(DATA.runs[k]) !== null ?
          el("a", { href: reportHash(DATA.runs[k], firstTopicOf(DATA.runs[k])), title: "read this run's reports" }, DATA.runs[k]) :
          DATA.runs[k], flagMark(DATA.runs[k])),
        lead,
        el("td", { cls: "interval-cell" }, bar),
        single ? null : markCell,
        cells));
    });
    table.appendChild(body);
    append(root, [
      el("div", { cls: "controls" }, el("label", null, "Rank by ", measureSelect(function () { renderLeaderboard(root); })),
        el("span", { cls: "count" }, plural(DATA.runs.length, "run") + " \u00b7 " + plural(DATA.topics.length, "topic"))),
      significanceText(), fieldText(), flagsText(),
      el("div", { cls: "scroll" }, table)]);
  }
  // circularity flags (`report --flags`): data for the reader, not a penalty
  function flagMark(run) {
    var flags = DATA.flags ? own(DATA.flags, run) : undefined;
    if (!flags || !flags.length) return null;
    return el("span", { cls: "circular-flag", title: flags.map(function (f) { return f[0] + " (" + f[1] + "): " + f[2]; }).join("\n"),
      "data-flags": flags.map(function (f) { return f[0]; }).join(" ") }, " \u2691");
  }
  function flagsText() {
    if (!DATA.flags || !Object.keys(DATA.flags).length) return null;
    return el("p", { cls: "explain" }, "\u2691 circularity flag: the run's metadata names the judge's model, or says it used the " +
      "evaluation's nuggets or judge; such runs may be favoured by this evaluation (hover for the evidence). A flag is data, " +
      "not a penalty.");
  }
  // a participant packet: the team's runs beside the whole round's median, best and worst (the round's other runs unnamed)
  function fieldText() {
    if (!DATA.field) return null;
    var f = own(DATA.field.measures, state.measure);
    if (!f) return null;
    return el("p", { cls: "explain", id: "field-summary" }, "This packet shows only your team's runs. Over all " +
      plural(DATA.field.runs, "run") + " of the round, the run means of " + measureLabel(state.measure) + " have median " +
      fmt(f.mean.median) + ", best " + fmt(f.mean.best) + " and worst " + fmt(f.mean.worst) +
      "; the topics view shows them per topic.");
  }

  // ---------------------------------------------------------------- per-topic heatmap
  function renderTopics(root) {
    clear(root);
    var values = DATA.values[state.measure];
    var rows = leaderOrder(state.measure);
    var difficulty = DATA.topics.map(function (_, j) { return mean(DATA.runs.map(function (_, i) { return values[i][j]; })); });
    var columns = DATA.topics.map(function (_, j) { return j; });
    if (state.topicSort === "difficulty") {
      columns.sort(function (a, b) { return (difficulty[a] === null ? 2 : difficulty[a]) - (difficulty[b] === null ? 2 : difficulty[b]); });
    }
    var showNumbers = DATA.topics.length <= 24;
    var anyDetails = Object.keys(DATA.reported).length > 0;
    var sortSelect = el("select", { "aria-label": "topic order" },
      el("option", { value: "id", text: "topic id" }), el("option", { value: "difficulty", text: "hardest first" }));
    sortSelect.value = state.topicSort;
    sortSelect.addEventListener("change", function () { state.topicSort = sortSelect.value; renderTopics(root); });
    var head = el("tr", null, el("th", { scope: "col" }, "run \\ topic"));
    columns.forEach(function (j) {
      var topic = DATA.topics[j];
      var request = own(DATA.requests, topic);
      head.appendChild(el("th", { scope: "col", cls: "topic-head" },
        el("a", { href: nuggetHash(topic), title: (request && request.title ? request.title + " \u2014 " : "") + "nuggets of " + topic }, topic)));
    });
    head.appendChild(el("th", { scope: "col", cls: "num" }, "mean"));
    var body = el("tbody");
    rows.forEach(function (i) {
      var run = DATA.runs[i];
      var tr = el("tr", { "data-run": run }, el("th", { scope: "row", cls: "run" }, run));
      columns.forEach(function (j) {
        var topic = DATA.topics[j], v = values[i][j];
        var absent = v === null || (anyDetails && !hasReport(run, topic));
        var title = run + " on " + topic + ": " + (absent ? "no report (" + (v === null ? "no score" : "scored " + fmt(v, 4)) + ")" : fmt(v, 4));
        var td = el("td", { cls: "cell" + (absent ? " absent" : ""), style: "background-color:" + heat(v) + ";color:" + inkFor(v), title: title,
          "data-topic": topic }, showNumbers ? (v === null ? "\u2013" : fmt(v, 2)) : "");
        if (hasReport(run, topic)) {
          td.classList.add("link");
          td.setAttribute("tabindex", "0");
          td.addEventListener("click", function () { location.hash = reportHash(run, topic); });
          td.addEventListener("keydown", function (e) { if (e.key === "Enter") location.hash = reportHash(run, topic); });
        }
        tr.appendChild(td);
      });
      tr.appendChild(el("td", { cls: "num" }, fmt(DATA.stats[state.measure].mean[i])));
      body.appendChild(tr);
    });
    var foot = el("tr", { cls: "difficulty" }, el("th", { scope: "row", title: "mean over runs: lower is harder" }, "topic mean"));
    columns.forEach(function (j) {
      foot.appendChild(el("td", { cls: "cell", style: "background-color:" + heat(difficulty[j]) + ";color:" + inkFor(difficulty[j]),
        title: DATA.topics[j] + ": mean " + fmt(difficulty[j], 4) + " over runs" }, showNumbers ? fmt(difficulty[j], 2) : ""));
    });
    foot.appendChild(el("td"));
    var field = DATA.field ? own(DATA.field.measures, state.measure) : undefined;
    var fieldRows = field ? ["median", "best", "worst"].map(function (what) {
      var tr = el("tr", { cls: "field field-" + what }, el("th", { scope: "row", title: what + " over all " + plural(DATA.field.runs, "run") + " of the round" },
        what + " of all runs"));
      columns.forEach(function (j) {
        var v = field[what][j];
        tr.appendChild(el("td", { cls: "cell", style: "background-color:" + heat(v) + ";color:" + inkFor(v),
          title: DATA.topics[j] + ": " + what + " " + fmt(v, 4) + " over all runs of the round" }, showNumbers ? fmt(v, 2) : ""));
      });
      tr.appendChild(el("td", { cls: "num" }, fmt(field.mean[what])));
      return tr;
    }) : [];
    append(root, [
      el("div", { cls: "controls" },
        el("label", null, "Measure ", measureSelect(function () { renderTopics(root); })),
        el("label", null, "Topics by ", sortSelect)),
      el("p", { cls: "explain" }, "Each cell is a run's " + measureLabel(state.measure) +
        " on a topic (darker is better; hover for the value). Click a cell to open that report; click a topic to see its nuggets. " +
        "The last row is the topic's mean over runs: its difficulty. Striped: the run has no report on that topic. ",
        el("span", { cls: "heat-legend", "aria-hidden": "true" }, [0, 0.25, 0.5, 0.75, 1].map(function (v) {
          return el("span", { style: "background-color:" + heat(v) + ";color:" + inkFor(v) }, String(v));
        }))),
      el("div", { cls: "scroll" }, el("table", { cls: "heatmap", id: "heatmap" }, el("thead", null, head), body, el("tfoot", null, foot, fieldRows)))]);
  }

  // ---------------------------------------------------------------- report view
  function stepText(b, step) {
    var S = b.strings, kind = S[step[0]];
    var what = {
      relevant: "cited document relevant?", answers: "gives the nugget answer?", attested: "cited document supports it?",
      negative: "negative assertion?", nugget_agrees: "a negative nugget records it?",
      requires_citation: "needs a citation?", first_instance: "first instance of the claim?"
    }[kind] || kind;
    var extra = [];
    if (step[4] !== null) extra.push(nuggetRef(b, S[step[4]]), step[5] !== null ? ": \u201c" + S[step[5]] + "\u201d" : "");
    var answer = step[1] === null ? "missing" : step[1] ? "yes" : "no";
    var li = el("li", { cls: "step " + (step[1] === null ? "missing" : step[1] ? "yes" : "no") },
      el("span", { cls: "q" }, what), " ", el("b", null, answer),
      extra.length ? el("span", { cls: "nugget-ref" }, " (", extra, ")") : null,
      el("span", { cls: "judge" }, " \u2014 " + (step[2] !== null ? S[step[2]] : "no judge")));
    if (step.length > 6) {
      var why = [];
      if (step[7] !== null && step[7] !== undefined) why.push("confidence " + fmt(step[7], 2));
      if (step[6] !== null && step[6] !== undefined) why.push(S[step[6]]);
      li.appendChild(el("div", { cls: "rationale" }, why.join(": ")));
    }
    return li;
  }
  function yesNo(value, yes, no) {
    return el("span", { cls: "flag " + (value === null ? "missing" : value ? "yes" : "no") },
      (value === null ? "? " : value ? "\u2713 " : "\u2717 ") + (value === null ? yes + " missing" : value ? yes : no));
  }
  function docPanel(b, docId) {
    var doc = own(b.docs, docId);
    if (!DATA.documents) return null;
    if (!doc) return el("div", { cls: "doc missing" }, "not in the collection");
    return el("div", { cls: "doc" }, doc[0] ? el("div", { cls: "doc-title" }, doc[0]) : null,
      el("div", { cls: "doc-text" }, doc[1] + (doc[2] ? " \u2026 [cut]" : "")));
  }
  function renderReport(root, run, topic) {
    clear(root);
    var runSelect = el("select", { "aria-label": "run" }), topicSelect = el("select", { "aria-label": "topic" });
    DATA.runs.forEach(function (r) { var o = el("option", { value: r, text: r }); if (r === run) o.selected = true; runSelect.appendChild(o); });
    DATA.topics.forEach(function (t) { var o = el("option", { value: t, text: t }); if (t === topic) o.selected = true; topicSelect.appendChild(o); });
    var go = function () { location.hash = reportHash(runSelect.value, topicSelect.value); };
    runSelect.addEventListener("change", go);
    topicSelect.addEventListener("change", go);
    append(root, el("div", { cls: "controls" }, el("label", null, "Run ", runSelect), el("label", null, "Topic ", topicSelect),
      el("a", { href: nuggetHash(topic) }, "nuggets of this topic")),
      el("p", { cls: "print-only" }, "Report of run ", el("b", null, run), " on topic ", el("b", null, topic)));
    var request = own(DATA.requests, topic);
    if (request) {
      append(root, el("section", { cls: "request" }, el("h2", null, topic + (request.title ? ": " + request.title : "")),
        request.background ? el("p", null, el("b", null, "Background. "), request.background) : null,
        request.problem ? el("p", null, el("b", null, "Request. "), request.problem) : null,
        request.limit !== null ? el("p", { cls: "muted" }, "Length limit: " + request.limit + " " + request.unit) : null));
    } else {
      append(root, el("h2", null, "Topic " + topic));
    }
    var i = runIndex(run), j = topicIndex(topic);
    append(root, el("div", { cls: "scores" }, DATA.measures.map(function (m) {
      var v = DATA.values[m.name][i][j];
      return el("span", { cls: "score" }, el("span", { cls: "muted" }, m.label + " "), el("b", null, fmt(v)));
    })));
    var b = block(topic);
    var report = b && own(b.reports, run);
    if (!report) {
      var anyDetails = Object.keys(DATA.reported).length > 0;
      append(root, el("p", { cls: "empty", id: "no-report" }, anyDetails ?
        run + " has no report for " + topic + " in the details: it scores 0 on this topic." :
        "No sentence details in this page: pass score's --details file to argue-eval report."));
      return;
    }
    var S = b.strings;
    var sentences = report[0];
    // citation numbers: each cited document once, numbered in the order the report first cites it
    var docNumber = Object.create(null), docOrder = [], citedBy = Object.create(null);
    sentences.forEach(function (sentence, k) {
      sentence[2].forEach(function (c) {
        var doc = S[c[0]];
        if (!(doc in docNumber)) { docNumber[doc] = docOrder.length + 1; docOrder.push(doc); citedBy[doc] = []; }
        citedBy[doc].push([k, c]);
      });
    });
    var counts = reportCounts(report);
    append(root, el("p", { cls: "counts", id: "report-counts" },
      el("b", null, plural(counts.sentences, "sentence")), " \u00b7 ", el("b", null, plural(counts.citations, "citation")),
      " (" + plural(docOrder.length, "document") + ") \u00b7 ",
      el("b", null, counts.covered + " of " + plural(counts.nuggets, "nugget")), " covered"));

    // the report as running text: each sentence in its outcome's colour, its citations as numbered markers
    var prose = el("div", { cls: "report-text", id: "report-text" });
    sentences.forEach(function (sentence, k) {
      var outcome = sentence[1];
      var o = outcome !== null ? DATA.outcomes[String(outcome)] : null;
      prose.appendChild(el("span", { cls: "run-sentence outcome-" + (outcome === null ? "none" : outcome), "data-sentence": String(k),
        title: "#" + (k + 1) + ": " + (o ? "outcome " + outcome + " (" + o.sign.replace("-", "\u2212") + "): " + o.text : "outcome unknown"),
        onclick: function () { showSentence(k); } }, sentence[0]));
      sentence[2].forEach(function (c) {
        var doc = S[c[0]];
        prose.appendChild(el("a", { href: "#", cls: "cite " + (c[3] === null ? "missing" : c[3] ? "yes" : "no") + (c[2] ? " relevant" : ""),
          "data-doc": doc, title: "[" + docNumber[doc] + "] " + doc + ": " + citationWords(c),
          onclick: function (e) { e.preventDefault(); flash(document.getElementById("doc-" + docNumber[doc])); } }, "[" + docNumber[doc] + "]"));
      });
      prose.appendChild(document.createTextNode(" "));
    });
    var docList = el("ol", { cls: "cited-docs", id: "cited-docs" });
    docOrder.forEach(function (doc, x) {
      var uses = citedBy[doc];
      var supports = uses.filter(function (u) { return u[1][3]; }).length;
      var relevant = uses.some(function (u) { return u[1][2]; });
      var known = own(b.docs, doc);
      docList.appendChild(el("li", { id: "doc-" + (x + 1), "data-doc": doc },
        el("div", null, el("span", { cls: "doc-number" }, "[" + (x + 1) + "]"), " ", el("span", { cls: "doc-id" }, doc),
          known ? [" ", el("span", { cls: "cited-title", title: known[0] ? null : "the opening of the document (it has no title)" },
            known[0] || shortText(known[1].split("\n")[0].trim(), 90))] : null),
        el("div", { cls: "doc-meta" }, yesNo(relevant, "relevant", "not relevant"), " ",
          el("span", { cls: "flag " + (supports === uses.length ? "yes" : "no") }, "supports " + supports + " of " + plural(uses.length, "citing sentence")),
          el("span", { cls: "muted" }, " \u2014 cited by ", uses.map(function (u, y) { return [y ? ", " : "", sentenceLink(u[0])]; })),
          DATA.documents ? el("details", { cls: "doc-box" }, el("summary", null, "document text"), docPanel(b, doc)) : null)));
    });
    var legend = el("ul", { cls: "legend" });
    Object.keys(DATA.outcomes).forEach(function (k) {
      var o = DATA.outcomes[k];
      legend.appendChild(el("li", { cls: "outcome-" + k }, el("span", { cls: "badge" }, k + " " + o.sign.replace("-", "\u2212")), " " + o.text));
    });
    append(root, el("details", { cls: "legend-box", open: "" }, el("summary", null, "Outcomes (+ rewarded, \u2212 penalized, 0 neutral)"), legend));
    append(root, el("h3", null, "The report"),
      el("p", { cls: "explain" }, "As written, each sentence shaded by its outcome (click one for how it was judged); " +
        "[n] cites the n-th document below (green: it supports the sentence, red: it does not; bold: relevant)."),
      prose, el("h4", null, "Cited documents"),
      docOrder.length ? docList : el("p", { cls: "muted", id: "cited-docs" }, "The report cites no document."));

    var coveredBy = Object.create(null);
    var list = el("ol", { cls: "sentences", id: "sentences" });
    sentences.forEach(function (sentence, k) {
      var outcome = sentence[1];
      var item = el("li", { cls: "sentence outcome-" + (outcome === null ? "none" : outcome), id: "s" + k, "data-outcome": outcome === null ? "" : String(outcome) });
      var o = outcome !== null ? DATA.outcomes[String(outcome)] : null;
      var nuggets = [];
      sentence[4].forEach(function (m) { if (nuggets.indexOf(m[0]) < 0) nuggets.push(m[0]); });
      item.appendChild(el("span", { cls: "badge", title: o ? o.text : "outcome unknown (judgments missing)" },
        outcome === null ? "?" : outcome + " " + o.sign.replace("-", "\u2212")));
      item.appendChild(el("span", { cls: "sentence-number" }, "#" + (k + 1)));
      item.appendChild(el("span", { cls: "text" }, sentence[0]));
      item.appendChild(el("span", { cls: "sentence-counts", title: "citations of this sentence; nuggets it gives an answer of" },
        plural(sentence[2].length, "citation") + ", " + plural(nuggets.length, "nugget")));
      var why = el("details", { cls: "why" }, el("summary", null, o ? o.text : "why"));
      if (sentence[2].length) {
        var cites = el("ul", { cls: "citations" });
        sentence[2].forEach(function (c) {
          var doc = S[c[0]];
          cites.appendChild(el("li", null, el("span", { cls: "doc-id" }, "[" + docNumber[doc] + "] " + doc), " ",
            yesNo(c[2], "relevant", "not relevant"), " ", yesNo(c[3], "supporting", "not supporting"),
            c[4] ? el("span", { cls: "flag yes" }, " \u2713 answers a nugget") : null,
            el("ol", { cls: "path" }, c[5].map(function (step) { return stepText(b, step); })),
            DATA.documents ? el("details", { cls: "doc-box" }, el("summary", null, "document text"), docPanel(b, doc)) : null));
        });
        why.appendChild(cites);
      }
      if (sentence[3].length) why.appendChild(el("ol", { cls: "path" }, sentence[3].map(function (step) { return stepText(b, step); })));
      if (sentence[5]) why.appendChild(el("p", { cls: "muted" }, sentence[5] + " repeated citation(s) of the same document checked once"));
      if (sentence[4].length) {
        why.appendChild(el("p", { cls: "matched" }, "Nugget answers found: ", sentence[4].map(function (m, x) {
          return [x ? "; " : "", nuggetRef(b, S[m[0]]), " \u201c" + S[m[1]] + "\u201d",
            m[2] !== null ? [" via ", el("span", { cls: "doc-id" }, shortText(S[m[2]], 14))] : ""];
        })));
        sentence[4].forEach(function (m) {
          var list = coveredBy[S[m[0]]] = coveredBy[S[m[0]]] || [];
          if (list.indexOf(k) < 0) list.push(k);
        });
      }
      item.appendChild(why);
      list.appendChild(item);
    });
    append(root, el("h3", null, "Sentence by sentence"), list);
    var found = Object.create(null);
    report[1].forEach(function (row) { found[S[row[0]]] = row; });
    var nuggetList = el("ul", { cls: "nuggets", id: "report-nuggets" });
    b.nuggets.forEach(function (n) {
      var row = found[n.id];
      var covered = row ? row[1] : null;
      var by = coveredBy[n.id] || [];
      var answers = row ? row[2].map(function (a) { return S[a]; }) : [];
      nuggetList.appendChild(el("li", { cls: "nugget " + (covered === null ? "unscored" : covered ? "covered" : "uncovered"), "data-nugget": n.id },
        el("span", { cls: "mark" }, covered === null ? "\u2013" : covered ? "\u2713" : "\u2717"), " ",
        nuggetId(n), n.question,
        n.importance ? el("span", { cls: "tag" }, n.importance) : null,
        n.negative ? el("span", { cls: "tag" }, "negative") : null,
        n.aggregator ? el("span", { cls: "tag aggregator", title: n.aggregator === "AND" ? "covered only when every required answer is found" :
          "covered when any one answer is found" }, n.aggregator) : null,
        covered !== null && !covered ? answerList(n, answers) :
          answers.length ? el("div", { cls: "muted" }, "answers found: " + answers.map(function (a) { return "\u201c" + a + "\u201d"; }).join(", ")) : null,
        by.length ? el("div", { cls: "muted" }, "by sentence ", by.map(function (k, x) { return [x ? ", " : "", sentenceLink(k)]; })) : null,
        covered === null ? el("div", { cls: "muted" }, "not scored (no document attests an answer)") : null));
    });
    append(root, el("h3", null, "Nuggets"),
      el("p", { cls: "explain" }, counts.covered + " of " + plural(counts.nuggets, "nugget") + " covered. An OR nugget is covered by " +
        "any one of its answers, an AND nugget only by all of its required answers (those bound to a document)."),
      nuggetList);
  }

  // counts of one report: as the scorer counted them (details' measures), else from the sentences
  function reportCounts(report) {
    if (report[3]) return { sentences: report[3][0], citations: report[3][1], covered: report[3][2], nuggets: report[3][3] };
    var citations = 0;
    report[0].forEach(function (sentence) { citations += sentence[2].length + sentence[5]; });
    return { sentences: report[0].length, citations: citations,
      covered: report[1].filter(function (row) { return row[1]; }).length, nuggets: report[1].length };
  }
  function citationWords(c) {
    return (c[2] === null ? "relevance unknown" : c[2] ? "relevant" : "not relevant") + ", " +
      (c[3] === null ? "support unknown" : c[3] ? "supports the sentence" : "does not support the sentence") +
      (c[4] ? ", gives a nugget answer" : "");
  }
  function flash(target) {
    if (!target) return;
    target.scrollIntoView({ block: "center" });
    target.classList.add("flash");
    setTimeout(function () { target.classList.remove("flash"); }, 1200);
  }
  function showSentence(k) {
    var target = document.getElementById("s" + k);
    if (!target) return;
    var why = target.querySelector("details.why");
    if (why) why.open = true;
    flash(target);
  }
  function sentenceLink(k) {
    return el("a", { href: "#", "data-sentence": String(k), onclick: function (e) { e.preventDefault(); showSentence(k); } }, "#" + (k + 1));
  }

  // An uncovered nugget's answers, each found or not, with why the nugget is still uncovered. ``found``: the
  // answers the report gave. The answers an AND nugget requires are those bound to a document (all of them
  // when none is, or when the nugget is negative), as the scorer counts them.
  var LONG_ANSWER_LIST = 10;
  function answerList(n, found) {
    var quote = function (a) { return "\u201c" + a + "\u201d"; };
    if (!n.answers || !n.answers.length) {
      return el("div", { cls: "muted" }, found.length ? "answers found: " + found.map(quote).join(", ") :
        "no answer found (pass --nuggets to list the nugget's answers)");
    }
    var isFound = function (text) { return found.indexOf(text) >= 0; };
    var bound = n.answers.filter(function (a) { return a[1] && a[1].length; });
    var required = bound.length && !n.negative ? bound : n.answers;
    var hits = required.filter(function (a) { return isFound(a[0]); }).length;
    var why = n.negative ? "Negative nugget: covered when an uncited sentence says what it records (outcome 8); no sentence did" :
      n.aggregator === "AND" ?
      "AND: covered only when all " + plural(required.length, "required answer") + " are found; " + hits + " of " + required.length + " found" :
      "OR: covered when any one " + (required.length < n.answers.length ? "bound " : "") + "answer is found; none found";
    var item = function (a) {
      var hit = isFound(a[0]), needed = required.indexOf(a) >= 0;
      return el("li", { cls: "answer " + (hit ? "found" : "missed") },
        el("span", { cls: "mark" }, hit ? "\u2713" : "\u2717"), " " + quote(a[0]),
        el("span", { cls: "muted" }, hit ? " found" : " not found"),
        needed ? null : el("span", { cls: "tag", title: "no document attests it, so the flowchart cannot find it through a citation" }, "not bound to a document"));
    };
    var all = el("ul", { cls: "answer-list" }, n.answers.map(item));
    if (n.answers.length <= LONG_ANSWER_LIST) return el("div", { cls: "answers" }, el("div", { cls: "why-uncovered" }, why), all);
    // a long list (Auto-ARGUE banks have AND nuggets of 40 answers): the found ones, the rest on demand
    var hitList = n.answers.filter(function (a) { return isFound(a[0]); });
    return el("div", { cls: "answers" }, el("div", { cls: "why-uncovered" }, why),
      hitList.length ? el("ul", { cls: "answer-list found-only" }, hitList.map(item)) : null,
      el("details", { cls: "all-answers" }, el("summary", null, "all " + n.answers.length + " answers (" +
        (n.answers.length - hitList.length) + " not found)"), all));
  }

  // A nugget named inside a judge's step: a short form of its id, its question (and full id) on hover.
  function nuggetRef(b, id) {
    if (!b.byId) {
      b.byId = Object.create(null);
      (b.nuggets || []).forEach(function (n) { b.byId[n.id] = n; });
    }
    var n = b.byId[id];
    var title = n && n.question !== id ? n.question + " [" + id + "]" : id;
    return el("span", { cls: "nugget-id", title: title }, shortText(id, n && n.question === id ? 48 : 14));
  }
  function shortText(text, most) {
    return text.length > most ? text.slice(0, most > 20 ? most - 1 : 8) + "\u2026" : text;
  }

  // A nugget's id before its question: nothing when the id is the question (formats without ids), a short
  // prefix of a long opaque id (Auto-ARGUE's 32-hex ids) with the whole id on hover.
  function nuggetId(n) {
    if (!n.id || n.id === n.question) return null;
    return [el("span", { cls: "nugget-id", title: n.id }, shortText(n.id, 14)), " "];
  }

  // ---------------------------------------------------------------- nugget view
  function renderNuggets(root, topic) {
    clear(root);
    var topicSelect = el("select", { "aria-label": "topic" });
    DATA.topics.forEach(function (t) { var o = el("option", { value: t, text: t }); if (t === topic) o.selected = true; topicSelect.appendChild(o); });
    topicSelect.addEventListener("change", function () { location.hash = nuggetHash(topicSelect.value); });
    append(root, el("div", { cls: "controls" }, el("label", null, "Topic ", topicSelect)));
    var request = own(DATA.requests, topic);
    append(root, el("h2", null, topic + (request && request.title ? ": " + request.title : "")));
    var b = block(topic);
    if (!b || !b.nuggets.length) {
      append(root, el("p", { cls: "empty" }, "No nugget details for this topic: pass --details (and --nuggets) to argue-eval report."));
      return;
    }
    var S = b.strings;
    var runs = leaderOrder(state.measure).map(function (k) { return DATA.runs[k]; }).filter(function (r) { return own(b.reports, r); });
    var covered = Object.create(null);
    runs.forEach(function (r) {
      covered[r] = Object.create(null);
      b.reports[r][1].forEach(function (row) { covered[r][S[row[0]]] = row[1]; });
    });
    var head = el("tr", null, el("th", { scope: "col" }, "nugget"), el("th", { scope: "col", cls: "num", title: "runs that covered it, of the runs with a report on this topic" }, "covered by"));
    runs.forEach(function (r) {
      head.appendChild(el("th", { scope: "col", cls: "run-head" }, el("a", { href: reportHash(r, topic), title: "open the report of " + r }, r)));
    });
    var body = el("tbody");
    b.nuggets.forEach(function (n) {
      var count = runs.filter(function (r) { return covered[r][n.id]; }).length;
      var tr = el("tr", null, el("th", { scope: "row", cls: "nugget-q" }, nuggetId(n), n.question,
        n.importance ? el("span", { cls: "tag" }, n.importance) : null, n.negative ? el("span", { cls: "tag" }, "negative") : null),
        el("td", { cls: "num", title: count + " of " + runs.length + " runs" }, count + "/" + runs.length));
      runs.forEach(function (r) {
        var c = covered[r][n.id];
        tr.appendChild(el("td", { cls: "tick " + (c === undefined || c === null ? "unscored" : c ? "covered" : "uncovered"),
          title: r + ": " + (c === undefined || c === null ? "not scored" : c ? "covered" : "not covered") },
          c === undefined || c === null ? "\u2013" : c ? "\u2713" : "\u00b7"));
      });
      body.appendChild(tr);
    });
    var foot = el("tr", { cls: "covered-row" }, el("th", { scope: "row" }, "nuggets covered"), el("td"));
    runs.forEach(function (r) {
      var counts = reportCounts(b.reports[r]);
      foot.appendChild(el("td", { cls: "num covered-count", "data-run": r, title: r + ": " + counts.covered + " of " +
        plural(counts.nuggets, "nugget") + " covered; " + plural(counts.sentences, "sentence") + ", " + plural(counts.citations, "citation") },
        counts.covered + "/" + counts.nuggets));
    });
    append(root, el("p", { cls: "explain" }, "Which runs covered each nugget (\u2713), runs in leaderboard order by " +
      measureLabel(state.measure) + "; " + runs.length + " of " + DATA.runs.length +
      " runs have a report on this topic. A nugget few runs cover is a hard one."),
      el("div", { cls: "scroll" }, el("table", { cls: "nugget-table", id: "nugget-table" }, el("thead", null, head), body,
        el("tfoot", null, foot))));
  }

  // ---------------------------------------------------------------- judges against people
  // Present only when `report --human H` was given: the judges' answers against the people's, per question
  // kind, with topic-bootstrap intervals (computed by argue-eval agree-judgments' code, embedded as data).
  function withCi(t) {
    if (!t || t[0] === null) return "n/a";
    return t[1] === null ? fmt(t[0]) : fmt(t[0]) + " [" + fmt(t[1]) + ", " + fmt(t[2]) + "]";
  }
  function simpleTable(id, heads, rows) {
    var head = el("tr", null, heads.map(function (h, k) { return el("th", { scope: "col", cls: k > 1 ? "num" : null }, h); }));
    return el("div", { cls: "scroll" }, el("table", { cls: "plain people-table", id: id }, el("thead", null, head),
      el("tbody", null, rows.map(function (row) {
        return el("tr", null, row.map(function (cell, k) { return el("td", { cls: k > 1 ? "num" : null }, cell); }));
      }))));
  }
  function renderPeople(root) {
    clear(root);
    var P = DATA.people, s = P.settings;
    var boot = Math.round(s.confidence * 100) + "% intervals resampling topics (" + s.resamples + " resamples, seed " + s.seed + ")";
    append(root, el("h2", null, "Judges against people"),
      el("p", { cls: "explain" }, "Reference: " + P.human + " (its last answer to each question, as scoring reads it" +
        (P.assessors.length ? "; assessors " + P.assessors.join(", ") : "") + "). Precision, recall and F1 are of \u201cyes\u201d " +
        "with the people's answer as the truth; alpha is Krippendorff's (nominal); " + boot + "."));
    var names = ["accuracy", "precision", "recall", "f1", "kappa", "alpha"];
    P.judges.forEach(function (j, k) {
      append(root, el("h3", null, j.label),
        simpleTable("people-judge-" + k, ["kind", "n"].concat(names, ["confusion (yy yn ny nn)"]), j.kinds.map(function (row) {
          return [row.kind, String(row.n)].concat(names.map(function (n) { return withCi(row[n]); }), [row.confusion.join(" ")]);
        })));
      if (j.systems) {
        var d = j.decisions;
        append(root, el("p", null, "Leaderboards (" + P.metric + ", " + j.systems.n_systems + " runs, " + j.systems.n_topics +
          " topics): Kendall tau-b " + withCi(j.systems.kendall_tau_b) + ", tau_AP " + withCi(j.systems.tau_ap) + ", Pearson " +
          withCi(j.systems.pearson) + ". Pairwise decisions: the same on " + d.same + " of " + d.pairs + " run pairs (" +
          fmt(d.agreement) + "); significant for the people only " + d.only_a + ", for the judge only " + d.only_b +
          ", opposite " + d.opposite + "."));
      }
    });
    if (P.people.length) {
      var rows = P.people.map(function (row) { return ["people", row.kind, String(row.units), fmt(row.agreement), "", withCi(row.alpha)]; });
      P.pairs.forEach(function (row) { rows.push([row.b + " vs " + row.a, row.kind, String(row.n), withCi(row.accuracy), withCi(row.kappa), ""]); });
      P.judges.forEach(function (j) {
        j.with_people.forEach(function (row) { rows.push(["people + " + j.label, row.kind, String(row.units), "", "", withCi(row.alpha)]); });
      });
      append(root, el("h3", null, "Double assessment"),
        el("p", { cls: "explain" }, "On the questions two or more assessors answered: alpha across them, each pair's agreement " +
          "and kappa, and alpha with each judge added as one more coder (if it barely moves, the judge is as good as another assessor)."),
        simpleTable("people-double", ["coders", "kind", "items", "agreement", "kappa", "alpha"], rows));
    }
    append(root, el("h3", null, "Disagreements, worst first"),
      el("p", { cls: "explain" }, P.disagreements.length + " of " + P.n_disagreements + " questions a judge answers unlike the people, " +
        "its most confident wrong answers first. `agree-judgments --disagreements` writes them all for the workbench's adjudication."));
    var list = el("ol", { cls: "disagreements", id: "people-disagreements" });
    P.disagreements.forEach(function (r) {
      var who = Object.keys(r.assessors).map(function (a) { return a + " " + (r.assessors[a] ? "yes" : "no"); }).join(", ");
      list.appendChild(el("li", null,
        el("div", null, el("span", { cls: "tag" }, r.kind), " ", r.request_id, r.doc_id ? " \u00b7 " + r.doc_id : "",
          " \u00b7 people ", el("b", null, r.people ? "yes" : "no"), who ? " (" + who + ")" : "",
          " \u00b7 " + r.judge + " ", el("b", null, r.value ? "yes" : "no"),
          r.confidence !== null ? " (confidence " + fmt(r.confidence, 2) + ")" : ""),
        el("div", { cls: "sentence-text" }, r.sentence),
        r.answer ? el("div", { cls: "muted" }, (r.nugget_question ? r.nugget_question + " \u2192 " : "answer: ") + r.answer) : null,
        r.rationale ? el("div", { cls: "muted" }, "judge: " + r.rationale) : null,
        r.doc_passage ? el("details", null, el("summary", null, "passage of " + r.doc_id + (r.doc_title ? ": " + r.doc_title : "")),
          el("p", null, r.doc_passage)) : null));
    });
    append(root, list);
    if (P.notes.length) append(root, el("h3", null, "Notes"), el("ul", null, P.notes.map(function (n) { return el("li", null, n); })));
  }

  // ---------------------------------------------------------------- figures (`report --figures DIR`)
  function renderFigures(root) {
    clear(root);
    append(root, el("h2", null, "Figures"),
      el("p", { cls: "explain" }, "The figures written beside this page (PNG, SVG and PDF), drawn from the same scores and " +
        "statistics; the first ones are shown here, every file is linked."));
    DATA.figures.forEach(function (f) {
      var links = f.files.map(function (path) { return el("a", { href: path, cls: "figure-file" }, path.split(".").pop().toUpperCase()); });
      var figure = el("figure", { cls: "figure", id: "figure-" + f.name },
        f.png ? el("img", { src: f.png, alt: f.title }) : null,
        el("figcaption", null, f.title + " ", links.map(function (a, n) { return n ? [" \u00b7 ", a] : a; })));
      root.appendChild(figure);
    });
  }

  // ---------------------------------------------------------------- about
  function renderAbout(root) {
    clear(root);
    var legend = el("ul", { cls: "legend" });
    Object.keys(DATA.outcomes).forEach(function (k) {
      var o = DATA.outcomes[k];
      legend.appendChild(el("li", { cls: "outcome-" + k }, el("span", { cls: "badge" }, k + " " + o.sign.replace("-", "\u2212")), " " + o.text));
    });
    var judges = el("table", { cls: "plain" }, el("thead", null, el("tr", null, el("th", null, "judge"), el("th", { cls: "num" }, "answers used"), el("th", null, "provenance"))));
    var jb = el("tbody");
    DATA.judges.forEach(function (j) {
      var prov = Object.keys(j.provenance).map(function (k) { return k + "=" + JSON.stringify(j.provenance[k]); }).join(", ");
      if (!prov && own(PSEUDO_JUDGES, j.name)) prov = PSEUDO_JUDGES[j.name];
      if (!prov && j.name.indexOf("autoargue:") === 0) {
        prov = "read from an Auto-ARGUE judgments file; \u201c" + j.name.slice(10) +
          "\u201d is the evaluator name that file gives (it does not name the model)";
      }
      jb.appendChild(el("tr", null, el("td", null, j.name), el("td", { cls: "num" }, String(j.steps)), el("td", null, prov || "\u2013")));
    });
    judges.appendChild(jb);
    var s = DATA.settings;
    append(root, el("h2", null, "Flowchart outcomes"), legend,
      el("h2", null, "Judges"), DATA.judges.length ? judges : el("p", { cls: "muted" }, "No sentence details were given."),
      el("h2", null, "Settings"),
      el("ul", null, el("li", null, "scoring policies: " + (DATA.policies || "not recorded")),
        el("li", null, "intervals: " + Math.round(s.confidence * 100) + "% BCa bootstrap, " + s.resamples + " resamples, seed " + s.seed),
        el("li", null, DATA.runs.length < 2 ? "significance: none (one run)" :
          "significance " + (s.baseline !== null ? "of each run against " + s.baseline : "over all pairs of runs") + ": " + testWords() +
          "; the same decisions as argue-eval compare with these options"),
        el("li", null, "a topic a run did not answer scores 0")),
      el("h2", null, "Notes"), DATA.notes.length ? el("ul", { id: "notes" }, DATA.notes.map(function (n) { return el("li", null, n); })) : el("p", { cls: "muted" }, "none"));
  }

  // ---------------------------------------------------------------- routing
  var PSEUDO_JUDGES = {
    nuggets: "relevance looked up in the nugget bindings (a cited document is relevant if it attests an answer); no model",
    qrels: "relevance looked up in the qrels; no model"
  };
  var views = { leaderboard: renderLeaderboard, topics: renderTopics, report: null, nuggets: null, about: renderAbout };
  if (DATA.people) views.people = renderPeople;
  if (DATA.figures) views.figures = renderFigures;
  function route() {
    var parts = location.hash.replace(/^#/, "").split("/").map(decodeURIComponent);
    var name = views.hasOwnProperty(parts[0]) ? parts[0] : "leaderboard";
    document.querySelectorAll("nav a").forEach(function (a) { a.classList.toggle("active", a.getAttribute("data-view") === name); });
    document.querySelectorAll("main > section.view").forEach(function (s) { s.hidden = s.id !== "view-" + name; });
    var root = document.getElementById("view-" + name);
    if (name === "report") {
      var run = DATA.runs.indexOf(parts[1]) >= 0 ? parts[1] : firstReport()[0];
      var topic = DATA.topics.indexOf(parts[2]) >= 0 ? parts[2] : firstReport()[1];
      renderReport(root, run, topic);
      window.scrollTo(0, 0);
    } else if (name === "nuggets") {
      renderNuggets(root, DATA.topics.indexOf(parts[1]) >= 0 ? parts[1] : DATA.topics[0]);
    } else {
      views[name](root);
    }
  }
  function firstReport() {
    var order = leaderOrder(state.measure);
    for (var t = 0; t < DATA.topics.length; t++) {
      for (var r = 0; r < order.length; r++) if (hasReport(DATA.runs[order[r]], DATA.topics[t])) return [DATA.runs[order[r]], DATA.topics[t]];
    }
    return [DATA.runs[order[0]], DATA.topics[0]];
  }
  document.getElementById("report-title").textContent = DATA.title;
  document.title = DATA.title;
  window.addEventListener("hashchange", route);
  route();
  document.body.setAttribute("data-ready", "1");
})();
