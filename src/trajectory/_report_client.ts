/**
 * The style and script inlined into `report.html`. The script builds every element with
 * `textContent`, never `innerHTML`, so text an agent produced can never become markup.
 * Both are plain strings (no template substitutions); they contain no backtick.
 */

/** The report's CSS. */
export const REPORT_CSS = String.raw`
:root { --fg: #1d232b; --muted: #5d6875; --line: #d9dee4; --bg: #f6f7f9; --ok: #17803d;
  --bad: #b42318; --warn: #a15c07; --accent: #1f5fbf; --code: #0f1720; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg);
  background: var(--bg); }
header { background: #12263f; color: #fff; padding: 14px 24px; display: flex; gap: 16px;
  align-items: baseline; flex-wrap: wrap; }
header h1 { font-size: 18px; margin: 0; }
header .sub { color: #c4d2e4; font-size: 13px; }
nav { display: flex; gap: 8px; padding: 10px 24px; border-bottom: 1px solid var(--line); background: #fff; }
nav a { color: var(--accent); text-decoration: none; padding: 4px 10px; border-radius: 6px; }
nav a.on { background: #e6eefb; font-weight: 600; }
main { padding: 16px 24px 48px; max-width: 1400px; }
h2 { font-size: 16px; margin: 22px 0 8px; }
h3 { font-size: 14px; margin: 16px 0 6px; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 10px; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; }
.card .v { font-size: 20px; font-weight: 600; }
.card .k { color: var(--muted); font-size: 12px; }
table { border-collapse: collapse; background: #fff; border: 1px solid var(--line); width: 100%; }
th, td { text-align: left; padding: 5px 9px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #eef1f4; font-weight: 600; font-size: 12px; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.click { cursor: pointer; }
tr.click:hover { background: #f0f5ff; }
.grid2 { display: grid; grid-template-columns: repeat(auto-fit, minmax(420px, 1fr)); gap: 14px; }
.grid2 > div { overflow-x: auto; }
.pill { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 12px; background: #eef1f4; }
.pill.ok { background: #dcf5e4; color: var(--ok); }
.pill.bad { background: #fde4e1; color: var(--bad); }
.pill.warn { background: #fdf0d5; color: var(--warn); }
pre { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 8px 10px; margin: 4px 0;
  overflow: auto; max-height: 420px; white-space: pre-wrap; word-break: break-word;
  font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; color: var(--code); }
pre.diff .add { color: var(--ok); background: #eefaf1; display: block; }
pre.diff .del { color: var(--bad); background: #fdf1f0; display: block; }
pre.diff .hunk { color: var(--accent); display: block; }
pre.diff .file { font-weight: 700; display: block; }
.turn { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; margin: 8px 0; }
.turn .label { color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.turn .label .pill { text-transform: none; letter-spacing: 0; }
.stepper { display: flex; gap: 8px; align-items: center; margin: 8px 0; flex-wrap: wrap; }
button { font: inherit; padding: 4px 12px; border: 1px solid var(--line); border-radius: 6px; background: #fff;
  cursor: pointer; }
button:disabled { opacity: .45; cursor: default; }
input[type=search], select { font: inherit; padding: 4px 8px; border: 1px solid var(--line); border-radius: 6px; }
.muted { color: var(--muted); }
.toolbar { display: flex; gap: 10px; align-items: center; margin: 8px 0; flex-wrap: wrap; }
`;

/** The report's script: reads the embedded data and renders the summary and the viewer. */
export const REPORT_JS = String.raw`
"use strict";
const DATA = JSON.parse(document.getElementById("patchgym-data").textContent);
const app = document.getElementById("app");

function el(tag, attrs, children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k === "on") for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
    else node.setAttribute(k, v);
  }
  for (const c of [].concat(children === undefined ? [] : children)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}
function fmt(x, digits) { return typeof x === "number" ? x.toFixed(digits === undefined ? 3 : digits) : "-"; }
function pct(a, b) { return b ? (100 * a / b).toFixed(1) + "%" : "-"; }
function ms(x) { return x >= 60000 ? (x / 60000).toFixed(1) + " min" : x >= 1000 ? (x / 1000).toFixed(1) + " s" : Math.round(x) + " ms"; }
function pill(text, kind) { return el("span", { class: "pill " + (kind || "") }, text); }
function outcomePill(o) {
  return pill(o.replace("_", " "), o === "resolved" ? "ok" : o === "unresolved" ? "bad" : "warn");
}
function card(value, key) { return el("div", { class: "card" }, [el("div", { class: "v" }, value), el("div", { class: "k" }, key)]); }
function table(head, rows, onClick) {
  const t = el("table", {}, [el("tr", {}, head.map((h) => el("th", { class: h.n ? "n" : "" }, h.t)))]);
  rows.forEach((r, i) => {
    const tr = el("tr", onClick ? { class: "click", on: { click: () => onClick(i) } } : {},
      r.map((c, j) => el("td", { class: head[j].n ? "n" : "" }, c)));
    t.append(tr);
  });
  return t;
}

function summaryView() {
  const s = DATA.summary, eps = DATA.episodes;
  const drift = eps.filter((e) => e.drift).length;
  const tamper = eps.filter((e) => e.reward && e.reward.report_problem).length;
  const graded = eps.filter((e) => e.reward).length;
  const out = [el("h2", {}, "Overview"), el("div", { class: "cards" }, [
    card(String(s.samples), "samples"), card(String(s.tasks), "tasks"),
    card(fmt(s.mean_reward), "mean reward"), card(fmt(s.pass_at_1), "pass@1"),
    s.pass_at_k ? card(fmt(s.pass_at_k.value), "pass@" + s.pass_at_k.k) : null,
    card(String(s.ids.resolved.length), "resolved"), card(String(s.ids.unresolved.length), "unresolved"),
    card(String(s.ids.error.length), "error"), card(String(s.ids.empty_patch.length), "empty patch"),
    card(String(s.tokens.prompt), "prompt tokens"), card(String(s.tokens.completion), "completion tokens"),
    card(ms(s.wall_ms.mean_sample), "mean sample time"), card(ms(s.wall_ms.total_sample), "total sample time"),
    card(pct(drift, eps.filter((e) => e.tokens).length), "token drift rate"), card(pct(tamper, graded), "test tamper rate"),
  ])];
  if (s.integrity) {
    out.push(el("h3", {}, "Reward hacks caught by the grader"), table([{ t: "integrity code" }, { t: "samples", n: 1 }],
      [["any (rate " + fmt(s.integrity.rate) + " of graded samples)", String(s.integrity.tampered)]]
        .concat(Object.entries(s.integrity.codes || {}).map(([k, v]) => [k, String(v)]))));
  }
  if (s.training) {
    const t = s.training;
    out.push(el("h3", {}, "Training signal"), table([{ t: "field" }, { t: "value", n: 1 }], [
      ["samples with token ids", t.with_tokens + "/" + s.samples], ["token drift", t.drifted + " (rate " + fmt(t.drift_rate) + ")"],
      ["trainable tokens", String(t.trainable_tokens)], ["zero-loss samples", String(t.zero_loss)]]));
  }
  out.push(el("h2", {}, "Stop reasons"), table([{ t: "stop reason" }, { t: "samples", n: 1 }, { t: "share", n: 1 }],
    Object.entries(s.stop_reasons).map(([k, v]) => [k, String(v), pct(v, s.samples)])));
  const group = (title, g) => el("div", {}, [el("h3", {}, title), table(
    [{ t: title }, { t: "tasks", n: 1 }, { t: "samples", n: 1 }, { t: "resolved", n: 1 }, { t: "mean reward", n: 1 }, { t: "pass@1", n: 1 }],
    Object.entries(g || {}).map(([k, v]) => [k, String(v.tasks), String(v.samples), String(v.resolved), fmt(v.mean_reward), fmt(v.pass_at_1)]))]);
  out.push(el("h2", {}, "Breakdown"), el("div", { class: "grid2" }, [
    group("language", s.by_language), group("difficulty", s.by_difficulty), group("kind", s.by_kind)]));
  out.push(el("h2", {}, "By task"), table(
    [{ t: "task" }, { t: "samples", n: 1 }, { t: "mean reward", n: 1 }, { t: "resolved", n: 1 }, { t: "mean turns", n: 1 }, { t: "stop reasons" }],
    s.per_task.map((t) => [t.task_id, String(t.samples), fmt(t.mean_reward), t.resolved + "/" + t.samples, fmt(t.mean_turns, 1),
      Object.entries(t.stop_reasons).map(([k, v]) => k + ":" + v).join(" ")]),
    (i) => { location.hash = "episodes?task=" + encodeURIComponent(s.per_task[i].task_id); }));
  return out;
}

function episodesView(params) {
  const eps = DATA.episodes;
  const search = el("input", { type: "search", placeholder: "filter by task or episode id", id: "filter" });
  search.value = params.get("task") || "";
  const which = el("select", { id: "which" }, ["all", "failed", "resolved", "unresolved", "error", "empty_patch"].map((o) => el("option", { value: o }, o.replace("_", " "))));
  which.value = params.get("show") || "all";
  const holder = el("div");
  function draw() {
    const q = search.value.trim().toLowerCase(), w = which.value;
    const shown = eps.map((e, i) => [e, i]).filter(([e]) =>
      (!q || e.episode_id.toLowerCase().includes(q) || e.task_id.toLowerCase().includes(q)) &&
      (w === "all" || (w === "failed" ? e.outcome !== "resolved" : e.outcome === w)));
    holder.replaceChildren(el("p", { class: "muted" }, shown.length + " of " + eps.length + " episodes; click one to step through it"),
      table([{ t: "episode" }, { t: "task" }, { t: "sample", n: 1 }, { t: "outcome" }, { t: "reward", n: 1 }, { t: "stop" }, { t: "turns", n: 1 }, { t: "time", n: 1 }],
        shown.map(([e]) => [e.episode_id, e.task_id, String(e.sample), outcomePill(e.outcome), e.reward ? fmt(e.reward.total) : "-", e.stop_reason, String(e.turns.length), ms(e.wall_ms)]),
        (k) => { location.hash = "episode=" + shown[k][1]; }));
  }
  search.addEventListener("input", draw);
  which.addEventListener("change", draw);
  draw();
  return [el("h2", {}, "Episodes"), el("div", { class: "toolbar" }, [search, which]), holder];
}

function diffBlock(text) {
  const pre = el("pre", { class: "diff" });
  if (!text) { pre.append("(no change)"); return pre; }
  for (const line of text.split("\n")) {
    const cls = /^(diff |--- |\+\+\+ )/.test(line) ? "file" : line.startsWith("@@") ? "hunk" : line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "";
    pre.append(cls ? el("span", { class: cls }, line) : document.createTextNode(line + "\n"));
  }
  return pre;
}

function turnBlock(t) {
  const parts = [el("div", { class: "label" }, "Turn " + (t.index + 1) + (t.dropped ? " (" + t.dropped + " extra calls not run)" : ""))];
  if (t.reasoning) parts.push(el("div", { class: "label" }, "reasoning"), el("pre", {}, t.reasoning));
  if (t.content) parts.push(el("div", { class: "label" }, "model"), el("pre", {}, t.content));
  if (t.parse_errors && t.parse_errors.length) parts.push(el("div", { class: "label" }, "parse errors"), el("pre", {}, t.parse_errors.join("\n")));
  if (t.tool) {
    parts.push(el("div", { class: "label" }, ["call ", pill(t.tool.name), " ", t.tool.ok ? pill("ok", "ok") : pill(t.tool.code || "error", "bad")]),
      el("pre", {}, t.tool.arguments), el("div", { class: "label" }, "result" + (t.tool.truncated ? " (truncated)" : "")), el("pre", {}, t.tool.output));
  } else {
    parts.push(el("div", { class: "label" }, "no tool call"));
  }
  return el("div", { class: "turn", "data-turn": String(t.index) }, parts);
}

function episodeView(index) {
  const e = DATA.episodes[index];
  if (!e) return [el("p", {}, "No such episode.")];
  const r = e.reward;
  const out = [
    el("div", { class: "stepper" }, [
      el("button", Object.assign({ id: "prev-episode", on: { click: () => { location.hash = "episode=" + (index - 1); } } }, index === 0 ? { disabled: "" } : {}), "< previous episode"),
      el("button", Object.assign({ id: "next-episode", on: { click: () => { location.hash = "episode=" + (index + 1); } } }, index === DATA.episodes.length - 1 ? { disabled: "" } : {}), "next episode >"),
      el("a", { href: "#episodes" }, "all episodes")]),
    el("h2", { id: "episode-title" }, e.episode_id),
    el("div", { class: "cards" }, [card(outcomePill(e.outcome), "outcome"), card(r ? fmt(r.total) : "-", "reward"), card(e.stop_reason, "stop reason"),
      card(String(e.turns.length), "turns"), card(ms(e.wall_ms), "time"), card(e.language + " / " + e.difficulty, e.kind),
      card(String(e.usage.prompt_tokens + e.usage.completion_tokens), "tokens")]),
  ];
  if (e.error) out.push(el("h3", {}, "Error"), el("pre", {}, e.error.code + ": " + e.error.message));
  if (e.submission) out.push(el("h3", {}, "Submission"), el("p", {}, [pill(e.submission.status), " ", e.submission.summary]));
  out.push(el("h3", {}, "Task statement"), el("pre", {}, e.statement));
  const prev = el("button", { id: "prev-turn" }, "< previous turn");
  const next = el("button", { id: "next-turn" }, "next turn >");
  const all = el("button", { id: "all-turns" }, "show all turns");
  const where = el("span", { class: "muted", id: "turn-position" });
  const turns = el("div", { id: "turns" });
  let at = 0, showAll = false;
  function drawTurns() {
    if (!e.turns.length) { turns.replaceChildren(el("p", { class: "muted" }, "No turns.")); where.textContent = ""; return; }
    turns.replaceChildren(...(showAll ? e.turns : [e.turns[at]]).map(turnBlock));
    where.textContent = showAll ? "all " + e.turns.length + " turns" : "turn " + (at + 1) + " of " + e.turns.length;
    prev.disabled = showAll || at === 0;
    next.disabled = showAll || at >= e.turns.length - 1;
    all.textContent = showAll ? "one turn at a time" : "show all turns";
  }
  prev.addEventListener("click", () => { at--; drawTurns(); });
  next.addEventListener("click", () => { at++; drawTurns(); });
  all.addEventListener("click", () => { showAll = !showAll; drawTurns(); });
  out.push(el("h3", {}, "Turns"), el("div", { class: "stepper" }, [prev, next, all, where]), turns);
  drawTurns();
  out.push(el("h3", {}, "Final diff"), diffBlock(e.final_diff));
  if (r) {
    const c = r.components;
    out.push(el("h3", {}, "Tests"), el("p", {}, [
      "fail_to_pass " + c.fail_to_pass.passed + "/" + c.fail_to_pass.total + ", pass_to_pass " + c.pass_to_pass.passed + "/" + c.pass_to_pass.total + "; patch ",
      c.patch_applied ? pill("applied", "ok") : pill("did not apply", "bad"),
      c.protected_path_edits.length ? [" protected paths edited: ", c.protected_path_edits.join(", ")].join("") : "",
      r.report_problem ? " test report problem: " + r.report_problem : ""]));
    const rows = [];
    for (const list of ["fail_to_pass", "pass_to_pass"]) {
      for (const [id, outcome] of Object.entries(r.tests[list] || {})) rows.push([list, id, pill(outcome, outcome === "passed" ? "ok" : "bad")]);
    }
    out.push(table([{ t: "list" }, { t: "test" }, { t: "outcome" }], rows));
    if (r.failures && r.failures.length) {
      out.push(el("h3", {}, "Failing tests' output"));
      for (const f of r.failures) out.push(el("div", { class: "label" }, f.id + " (" + f.outcome + ")"), el("pre", { class: "failure" }, f.output));
    }
  } else {
    out.push(el("h3", {}, "Tests"), el("p", { class: "muted" }, "Not graded."));
  }
  return out;
}

function route() {
  const hash = decodeURIComponent(location.hash.slice(1));
  const [name, query] = hash.split("?");
  const params = new URLSearchParams(query || "");
  let view, tab;
  if (name.startsWith("episode=")) { view = episodeView(Number(name.slice(8))); tab = "episodes"; }
  else if (name === "episodes") { view = episodesView(params); tab = "episodes"; }
  else { view = summaryView(); tab = "summary"; }
  for (const a of document.querySelectorAll("nav a")) a.classList.toggle("on", a.dataset.tab === tab);
  app.replaceChildren(...view);
  window.scrollTo(0, 0);
}
document.getElementById("title").textContent = "patchgym run " + DATA.run_id;
document.getElementById("subtitle").textContent = DATA.subtitle;
window.addEventListener("hashchange", route);
route();
`;
