// longread web UI: Documents → Configure → Results. Plain DOM, no build step.
// Everything a model or a document says is put on the page as text (textContent), never as HTML.
"use strict";

const $ = (selector, root = document) => root.querySelector(selector);
const state = { config: null, documents: [], selected: new Set(), controllers: [], generation: 0,
  conversation: null, asked: "", notice: "" };
const PHASES = ["INIT", "CHUNK", "SUBCALL", "AGGREGATE", "RESPOND"];
const REFERENCE_CHARS = 600; // of a section a reference opens, marked in the viewer
const WATCH_REFRESH_MS = 3000; // how often the documents list is read again while folders are watched

/** An element with attributes and children (strings become text nodes). */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return node;
}

/** Show `message` (or clear the notice, for ""); `cause` names what would make it moot. */
function notify(message, cause = "") {
  const box = $("#notice");
  box.textContent = message;
  box.hidden = !message;
  state.notice = cause;
}

/** Clear the notice if `cause` was what it was about. */
function resolved(cause) {
  if (state.notice === cause) notify("");
}

// --- the API --------------------------------------------------------------------------------
function headers(extra = {}) {
  const token = sessionStorage.getItem("longread-token");
  return token ? { ...extra, Authorization: `Bearer ${token}` } : extra;
}

async function api(path, options = {}) {
  const response = await fetch(path, { ...options, headers: headers(options.headers) });
  if (response.status === 401) {
    $("#token-form").hidden = false;
    $("#token").focus();
    throw new Error("This server needs an access token.");
  }
  const body = response.headers.get("content-type")?.includes("json") ? await response.json() : {};
  if (!response.ok) throw new Error(detail(body) || `${response.status} ${response.statusText}`);
  return body;
}

function detail(body) {
  if (typeof body.detail === "string") return body.detail;
  if (Array.isArray(body.detail)) return body.detail.map((d) => `${d.loc.slice(1).join(".")}: ${d.msg}`).join("; ");
  return "";
}

/** POST to the stream endpoint; calls onEvent(kind, data) for each Server-Sent Event. */
async function stream(body, onEvent, signal) {
  const response = await fetch("/api/analyze-stream", {
    method: "POST", body: JSON.stringify(body), signal,
    headers: headers({ "Content-Type": "application/json" }),
  });
  if (!response.ok) {
    const parsed = response.headers.get("content-type")?.includes("json") ? await response.json() : {};
    throw new Error(detail(parsed) || `${response.status} ${response.statusText}`);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value.replace(/\r\n/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let kind = "message";
      const data = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) kind = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
      }
      if (data.length) onEvent(kind, JSON.parse(data.join("\n")));
    }
  }
}

// --- steps ----------------------------------------------------------------------------------
function showStep(name) {
  notify("");  // a notice is about the step it was shown on
  for (const section of document.querySelectorAll(".step")) section.hidden = section.id !== `step-${name}`;
  for (const button of document.querySelectorAll("#steps button")) {
    if (button.dataset.step === name) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
  $(`#step-${name} h2`).focus();
  if (name === "configure") estimateSoon();
  if (name === "runs") loadRuns();
}

// --- documents ------------------------------------------------------------------------------
async function loadDocuments() {
  state.documents = (await api("/api/documents")).documents;
  renderDocuments();
}

/** The list read again while the server watches folders; drawn again only if it changed. */
async function refreshDocuments() {
  if (document.hidden) return;
  const { documents } = await api("/api/documents");
  if (JSON.stringify(documents) === JSON.stringify(state.documents)) return;
  state.documents = documents;
  renderDocuments();
}

function describeKind(doc) {
  if (doc.source === "upload") return "upload";
  if (doc.kind !== "corpus") return "indexed";
  return doc.updated ? `indexed corpus, updated ${new Date(doc.updated * 1000).toLocaleString()}` : "indexed corpus";
}

function renderDocuments() {
  const body = $("#documents tbody");
  body.replaceChildren();
  for (const doc of state.documents) {
    const box = el("input", { type: "checkbox", "aria-label": `Use ${doc.name}` });
    box.checked = state.selected.has(doc.id);
    box.addEventListener("change", () => {
      if (box.checked) state.selected.add(doc.id); else state.selected.delete(doc.id);
      if (state.selected.size) resolved("selection");
      updateModes();
    });
    const remove = doc.source === "upload"
      ? el("button", { type: "button", "aria-label": `Remove ${doc.name}`, onclick: () => removeDocument(doc.id) }, "Remove")
      : "";
    body.append(el("tr", { "data-id": doc.id },
      el("td", {}, box), el("td", {}, doc.name),
      el("td", {}, describeKind(doc)),
      el("td", { class: "num" }, doc.chars.toLocaleString("en")),
      el("td", { class: "num" }, doc.kind === "corpus" ? `${doc.documents.toLocaleString("en")} documents` : doc.pages ?? "—"),
      el("td", {}, remove)));
  }
  $("#no-documents").hidden = state.documents.length > 0;
  updateModes();
}

async function addDocuments(form) {
  try {
    const { documents } = await api("/api/parse", { method: "POST", body: form });
    for (const doc of documents) state.selected.add(doc.id);
    notify(`Added ${documents.map((d) => `${d.name} (${d.chars.toLocaleString("en")} characters)`).join(", ")}.`);
    await loadDocuments();
  } catch (error) {
    notify(error.message);
  }
}

/** Upload the chosen or dropped `files` (refused at once when over the server's limit). */
async function upload(files) {
  if (!files.length) return;
  const megabytes = [...files].reduce((sum, file) => sum + file.size, 0) / 1024 / 1024;
  const limit = state.config?.max_upload_mb ?? Infinity;
  if (megabytes > limit) { notify(`That is ${megabytes.toFixed(1)} MB; this server takes up to ${limit} MB at once.`); return; }
  const form = new FormData();
  for (const file of files) form.append("files", file);
  await addDocuments(form);
}

async function removeDocument(id) {
  try {
    await api(`/api/documents/${encodeURIComponent(id)}`, { method: "DELETE" });
    state.selected.delete(id);
    await loadDocuments();
  } catch (error) {
    notify(error.message);
  }
}

// --- configure ------------------------------------------------------------------------------
async function loadConfig() {
  state.config = await api("/api/config");
  for (const [id, chosen] of [["model", state.config.model], ["subModel", state.config.subModel]]) {
    const select = $(`#${id}`);
    select.replaceChildren(...state.config.models.filter((m) => m.available).map((m) => {
      const option = el("option", { value: m.spec }, m.writes_code ? `${m.spec} (writes code)` : m.spec);
      option.selected = m.spec === chosen;
      return option;
    }));
  }
  updateModes();
}

/** The modes the chosen documents can be analyzed with: a corpus has no `base`. */
function allowedModes() {
  const chosen = state.documents.filter((d) => state.selected.has(d.id));
  if (chosen.some((d) => d.kind === "corpus")) return state.config.corpus_modes;
  return chosen.some((d) => d.source !== "upload") ? state.config.indexed_modes : state.config.modes;
}

/** Disable the modes that cannot run (rlm needs a root model that writes code), and say why. */
function updateModes() {
  if (!state.config) return;
  const root = state.config.models.find((m) => m.spec === $("#model").value);
  const canCode = Boolean(root?.writes_code);
  const allowed = allowedModes();
  for (const option of $("#mode").options) {
    option.disabled = !allowed.includes(option.value) || (option.value === "rlm" && !canCode);
  }
  if ($("#mode").selectedOptions[0]?.disabled) $("#mode").value = "map";
  const notes = [];
  if (!canCode) notes.push(`rlm is unavailable: ${root?.spec ?? "this model"} cannot write code (choose a code-writing root model).`);
  if (!allowed.includes("base")) notes.push("base is not used for a corpus (it would read only the start of its first files).");
  $("#mode-note").textContent = notes.join(" ");
}

/** A (least, most) range as "n", "n–m", or "n+" when it has no upper end. */
function span([least, most], format = (n) => n.toLocaleString("en")) {
  if (most === least) return format(least);
  return most === null ? `${format(least)}+` : `${format(least)}–${format(most)}`;
}

function describeEstimate(e) {
  const cost = e.cost_usd === null ? "cost unknown (no price for this model)" : span(e.cost_usd, (n) => `$${n.toFixed(4)}`);
  const seconds = e.seconds === null ? "time unknown (model not timed yet)" : `${span(e.seconds, (n) => n.toFixed(1))} s`;
  return `${span(e.calls)} calls (${span(e.subcalls)} sub${e.cached_calls ? `, ${e.cached_calls} cached` : ""}) · ` +
    `${span(e.input_tokens)} in / ${span(e.output_tokens)} out tokens · ${cost} · ${seconds}`;
}

/** The cost of the analysis as configured, asked of the server (no model call) a moment after
 * the last change; a reply to an older configuration is dropped. */
async function refreshEstimate() {
  const target = $("#estimate");
  const body = request($("#mode").value);
  if (!body.question || !body.document_ids.length) { target.hidden = true; return; }
  const asked = state.estimateAsked = JSON.stringify(body);
  try {
    const e = await api("/api/estimate", { method: "POST", headers: { "content-type": "application/json" }, body: asked });
    if (asked !== state.estimateAsked) return;
    const chosen = e.note.startsWith("auto: ");  // (the gate's reason, said as a reason)
    const note = chosen ? "" : e.note ? `; ${e.note}` : "";
    target.replaceChildren(`Estimate (${e.mode}${note}): ${describeEstimate(e)}`,
      ...(chosen ? [el("br"), `auto answers in ${e.mode} because ${e.note.slice(6)}.`] : []));
  } catch (error) {
    if (asked !== state.estimateAsked) return;
    target.textContent = `No estimate: ${error.message}`;
  }
  target.hidden = false;
  await estimateEachModel(body, asked);
}

/** With several models on offer: what the same analysis would cost with each as both models. */
async function estimateEachModel(body, asked) {
  const list = $("#model-costs");
  const models = state.config.models.filter((m) => m.available);
  if (models.length < 2) { list.hidden = true; return; }
  const rows = await Promise.all(models.map(async (m) => {
    const each = JSON.stringify({ ...body, model: m.spec, subModel: m.spec });
    try {
      const e = await api("/api/estimate", { method: "POST", headers: { "content-type": "application/json" }, body: each });
      return el("li", { "data-model": m.spec }, el("strong", {}, m.spec), `: ${describeEstimate(e)}`);
    } catch (error) {
      return el("li", { "data-model": m.spec }, el("strong", {}, m.spec), `: no estimate (${error.message})`);
    }
  }));
  if (asked !== state.estimateAsked) return;
  list.replaceChildren(el("li", { class: "muted" }, "The same analysis with each model on offer (as root and sub-model):"), ...rows);
  list.hidden = false;
}

let estimateTimer = 0;
function estimateSoon() {
  clearTimeout(estimateTimer);
  estimateTimer = setTimeout(refreshEstimate, 400);
}

function request(mode) {
  const number = (id) => Number($(`#${id}`).value);
  return {
    question: $("#question").value.trim(), mode, document_ids: [...state.selected],
    chunkSize: number("chunkSize"), topK: number("topK"), maxSubcalls: number("maxSubcalls"),
    concurrency: number("concurrency"), rewrite: $("#rewrite").checked,
    verify: $("#verify").checked,
    model: $("#model").value || null, subModel: $("#subModel").value || null,
  };
}

function ready() {
  if (!state.selected.size) { showStep("documents"); notify("Choose at least one document first.", "selection"); return false; }
  if (!$("#question").value.trim()) { notify("Write a question first.", "question"); $("#question").focus(); return false; }
  notify("");
  return true;
}

// --- results --------------------------------------------------------------------------------
/** One run's panel: phases, terminal, answer. `root` holds elements with the classes used here. */
class RunView {
  constructor(root, title) {
    this.root = root;
    this.title = title;
    this.phases = $(".phases, #phases", root);
    this.terminal = $(".terminal", root);
    this.answer = $(".answer-card, #answer", root);
    this.phases.replaceChildren(...PHASES.map((name) => el("li", { "data-phase": name }, name)));
    this.terminal.replaceChildren();
    this.answer.hidden = true;
  }

  line(text, kind = "") {
    const row = el("div", { class: `line ${kind}` }, text);
    this.terminal.append(row);
    this.terminal.scrollTop = this.terminal.scrollHeight;
  }

  event(kind, data) {
    if (kind === "phase") {
      const item = $(`[data-phase="${data.name}"]`, this.phases);
      item.className = data.skipped ? "skipped" : "done";
      item.title = data.skipped ? "not used in this mode" : data.detail;
    } else if (kind === "log") {
      this.line(`${data.t.toFixed(1).padStart(6)} s  ${data.line}`);
    } else if (kind === "answer") {
      this.show(data);
    } else if (kind === "error") {
      this.line(`error: ${data.message}`, "error");
    }
  }

  show(result) {
    this.answer.hidden = false;
    if (this.root.id === "single") state.conversation = result.conversation ?? null;
    $(".mode-tag", this.answer).textContent = `(${result.mode})`;
    renderAnswer($(".answer-text", this.answer), result);
    const list = $(".citations", this.answer);
    list.replaceChildren(...result.citations.map((c, i) => el("li", {},
      citationButton(c, `[${i + 1}]`), " ", el("q", {}, c.text.length > 240 ? `${c.text.slice(0, 240)}…` : c.text))));
    renderCounts($(".counts", this.answer), result.counts);
    const report = $(".download-report", this.answer);
    if (report) report.onclick = () => download(result.report, "longread-report.html");
    if (!result.citations.length) list.append(el("li", { class: "muted" }, "No citation: the text does not support this answer word for word."));
    $(".claims", this.answer).replaceChildren(...result.claims.map((c) => el("li",
      { class: c.supported ? "supported" : "unsupported" },
      el("span", { class: "claim-state" }, c.supported ? "✓ supported" : "⚠ unsupported"), " ", c.text,
      c.reason ? el("span", { class: "muted" }, ` (${c.reason})`) : "")));
    const held = result.claims.filter((c) => c.supported).length;
    const claims = result.claims.length ? ` · ${held} of ${result.claims.length} claims supported` : "";
    const u = result.usage;
    const cost = u.cost_usd === null ? "cost unknown" : `$${u.cost_usd.toFixed(4)}`;
    const chunks = result.chunks_read == null ? ""
      : ` · ${result.chunks_read} of ${result.chunks_total ?? "?"} chunks read`;
    $(".usage", this.answer).textContent = `${u.calls} calls (${u.subcalls} sub, ${u.cached_calls} cached) · ` +
      `${u.input_tokens.toLocaleString("en")} in / ${u.output_tokens.toLocaleString("en")} out tokens · ${cost} · ` +
      `${u.seconds.toFixed(1)} s${chunks}${claims}` +
      `${result.estimate ? ` · estimated ${span(result.estimate.calls)} calls, ${span(result.estimate.input_tokens)} in / ${span(result.estimate.output_tokens)} out` : ""}` +
      `${result.stopped_by ? ` · stopped by ${result.stopped_by}` : ""}`;
  }
}

/** The answer's text, each unsupported claim highlighted (its reason as a tooltip) and each
 * [citation-id] it contains as a button that opens the cited text. */
function renderAnswer(target, result) {
  target.replaceChildren();
  let last = 0;
  for (const claim of result.claims.filter((c) => !c.supported)) {
    if (claim.start < last) continue;
    appendCited(target, result.answer.slice(last, claim.start), result.citations);
    const span = el("span", { class: "unsupported", title: `unsupported: ${claim.reason}` });
    appendCited(span, result.answer.slice(claim.start, claim.end), result.citations);
    target.append(span);
    last = claim.end;
  }
  appendCited(target, result.answer.slice(last), result.citations);
}

/** `text` appended to `target`, each [citation-id] in it a button marked with the citation's number. */
function appendCited(target, text, citations) {
  const byId = new Map(citations.map((c, i) => [c.id, [c, i + 1]]));
  let last = 0;
  for (const match of text.matchAll(/\[([^\][]+)\]/g)) {
    const found = byId.get(match[1]);
    if (!found) continue;
    target.append(document.createTextNode(text.slice(last, match.index)), citationButton(found[0], `[${found[1]}]`));
    last = match.index + match[0].length;
  }
  target.append(document.createTextNode(text.slice(last)));
}

const CHART_BARS = 30;  // groups a chart shows (the first, as ranked)

/** What a count rests on: its groups as a bar chart, and the rows it counted as a table sorted by
 * a click on a heading, each row opening its citation. */
function renderCounts(section, counts) {
  if (!section) return;
  const canvas = $(".counts-chart", section);
  if (canvas && window.Chart) window.Chart.getChart(canvas)?.destroy();
  section.hidden = !counts || (!counts.groups.length && !counts.rows.length);
  if (section.hidden) return;
  const charted = counts.groups.slice(0, CHART_BARS);
  canvas.hidden = !charted.length || !window.Chart;
  if (!canvas.hidden) {
    canvas.setAttribute("aria-label", `${counts.figure} by ${counts.group}`);
    new window.Chart(canvas, {
      type: "bar",
      data: { labels: charted.map((g) => g[0]), datasets: [{ label: counts.figure, data: charted.map((g) => g[1]) }] },
      options: { animation: false, responsive: true, plugins: { legend: { display: false } },
        scales: { y: { beginAtZero: true, title: { display: true, text: counts.figure } } } },
    });
  }
  const columns = [[counts.label.replaceAll("_", " ") || "row", (row) => row.label],
    ["document", (row) => row.path ?? row.document_id], ["characters", (row) => row.start]];
  const table = $(".counts-rows", section);
  table.hidden = !counts.rows.length;
  let order = { column: -1, down: false };
  const body = () => {
    const rows = [...counts.rows];
    if (order.column >= 0) {
      const value = columns[order.column][1];
      rows.sort((a, b) => (value(a) > value(b) ? 1 : value(a) < value(b) ? -1 : 0) * (order.down ? -1 : 1));
    }
    $("tbody", table).replaceChildren(...rows.map((row) => el("tr", { tabindex: "0", title: "Show the cited text",
      onclick: () => openCitation(row), onkeydown: (e) => { if (e.key === "Enter") openCitation(row); } },
      ...columns.map(([, value]) => el("td", {}, String(value(row) ?? ""))))));
  };
  $("thead", table).replaceChildren(el("tr", {}, ...columns.map(([name], i) => el("th", {},
    el("button", { type: "button", onclick: () => { order = { column: i, down: order.column === i && !order.down }; body(); } }, name)))));
  body();
}

/** Save `text` as a file named `name` (an HTML report: it needs nothing from the server). */
function download(text, name) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/html" }));
  const link = el("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function citationButton(citation, label) {
  return el("button", { type: "button", class: "cite", "data-cite": citation.id,
    "aria-label": `Show cited text ${citation.id}`, onclick: () => openCitation(citation) }, label);
}

async function openCitation(citation) {
  const viewer = $("#viewer");
  try {
    const query = new URLSearchParams({ start: citation.start, end: citation.end });
    if (citation.path) query.set("path", citation.path);
    const range = await api(`/api/documents/${encodeURIComponent(citation.document_id)}/range?${query}`);
    const doc = state.documents.find((d) => d.id === citation.document_id);
    const where = [doc?.name ?? citation.document_id, `characters ${citation.start}–${citation.end}`];
    if (citation.path) where.splice(1, 0, citation.path);
    if (citation.page) where.push(`page ${citation.page}`);
    if (citation.section) where.push(`§ ${citation.section}`);
    $(".viewer-where", viewer).textContent = `${citation.id} · ${where.join(" · ")}`;
    const mark = el("mark", {}, range.text);
    $(".viewer-text", viewer).replaceChildren(
      range.start - range.before.length > 0 ? "…" : "", range.before, mark, range.after, "…");
    showReferences(viewer, citation, range.references ?? []);
    viewer.hidden = false;
    viewer.focus();
    mark.scrollIntoView({ block: "center" });
  } catch (error) {
    notify(error.message);
  }
}

/** The sections the shown text refers to ("see 4.2"), each a button that opens it. */
function showReferences(viewer, citation, references) {
  const named = references.filter((r) => r.target_start !== null);
  const line = $(".viewer-references", viewer);
  line.replaceChildren(...(named.length ? ["Refers to: "] : []), ...named.map((r) => el("button", {
    type: "button", class: "cite", "aria-label": `Open ${r.target}`,
    onclick: () => openCitation({ ...citation, id: r.text, start: r.target_start,
      end: Math.min(r.target_end, r.target_start + REFERENCE_CHARS), section: r.target, page: null }),
  }, `${r.text} → ${r.target}`)));
  line.hidden = !named.length;
}

function stopRuns() {
  state.generation += 1;  // a comparison under way stops too
  for (const controller of state.controllers) controller.abort();
  state.controllers = [];
  $("#cancel").disabled = true;
}

async function runOne(view, body) {
  const controller = new AbortController();
  state.controllers.push(controller);
  $("#cancel").disabled = false;
  try {
    await stream(body, (kind, data) => view.event(kind, data), controller.signal);
  } catch (error) {
    view.line(error.name === "AbortError" ? "cancelled: the server stops issuing model calls" : `error: ${error.message}`, "error");
  } finally {
    state.controllers = state.controllers.filter((c) => c !== controller);
    $("#cancel").disabled = state.controllers.length === 0;
  }
}

async function analyze() {
  if (!ready()) return;
  stopRuns();
  $("#single").hidden = false;
  $("#comparison").hidden = true;
  $("#viewer").hidden = true;
  $("#thread").hidden = true;
  $("#thread .turns").replaceChildren();
  state.conversation = null;
  showStep("results");
  await ask(request($("#mode").value));
}

/** One question in the single view (the next of its conversation, if `body` names one); the
 * follow-up form is offered once the answer names its conversation. */
async function ask(body) {
  state.asked = body.question;
  $("#asked").textContent = `Q: ${body.question}`;
  $("#follow-up-form").hidden = true;
  const view = new RunView($("#single"), "answer");
  await runOne(view, body);
  $("#follow-up-form").hidden = !state.conversation;
}

/** The follow-up question: the answer shown moves up into the conversation's thread. */
async function followUp() {
  const question = $("#follow-up").value.trim();
  if (!question) { notify("Write a follow-up question first.", "follow-up"); $("#follow-up").focus(); return; }
  notify("");
  stopRuns();
  const answered = $("#answer").hidden ? "(no answer)" : $("#answer .answer-text").textContent;
  $("#thread .turns").append(el("li", {}, el("p", { class: "asked" }, state.asked), el("p", {}, answered)));
  $("#thread").hidden = false;
  $("#follow-up").value = "";
  $("#viewer").hidden = true;
  await ask({ ...request($("#mode").value), question, conversation: state.conversation });
}

/** Every mode on the same question, side by side (run one after another: local models share the CPU). */
async function compare() {
  if (!ready()) return;
  stopRuns();
  const root = state.config.models.find((m) => m.spec === $("#model").value);
  const modes = ["base", "retrieval", "map", "rlm"];
  const grid = $("#comparison");
  grid.replaceChildren();
  const views = modes.map((mode) => {
    const column = el("section", { class: "column", "aria-label": `${mode} mode`, "data-mode": mode },
      el("h3", {}, mode), el("ol", { class: "phases" }), el("div", { class: "terminal", role: "log", tabindex: "0" }),
      el("article", { class: "answer-card card", hidden: "" },
        el("h4", {}, "Answer ", el("span", { class: "mode-tag" })), el("p", { class: "answer-text" }),
        el("ol", { class: "citations" }), el("ul", { class: "claims" }), el("p", { class: "usage muted" })));
    grid.append(column);
    return new RunView(column, mode);
  });
  $("#single").hidden = true;
  grid.hidden = false;
  $("#viewer").hidden = true;
  showStep("results");
  const generation = state.generation;  // Cancel, or another analysis, ends this comparison
  const allowed = allowedModes();
  for (const [i, mode] of modes.entries()) {
    if (state.generation !== generation) break;
    if (!allowed.includes(mode)) {
      views[i].line(`${mode} is not used for a corpus.`);
    } else if (mode === "rlm" && !root?.writes_code) {
      views[i].line(`rlm is unavailable: ${root?.spec} cannot write code.`, "error");
    } else {
      await runOne(views[i], request(mode));
    }
  }
}

// --- runs -----------------------------------------------------------------------------------
async function loadRuns() {
  try {
    const { runs } = await api("/api/runs");
    $("#runs tbody").replaceChildren(...runs.map((run) => el("tr", { "data-id": run.id },
      el("td", {}, run.question), el("td", {}, run.mode ?? "—"),
      el("td", { class: "num" }, String(run.calls)), el("td", { class: "num" }, run.tokens.toLocaleString("en")),
      el("td", { class: "num" }, run.seconds.toFixed(1)),
      el("td", {}, el("button", { type: "button", "aria-label": `View run: ${run.question}`, onclick: () => openRun(run.id) }, "View")))));
    $("#no-runs").hidden = runs.length > 0;
  } catch (error) {
    notify(error.message);
  }
}

/** A run as a timeline: each event with its time, what it was, and the budget spent so far. */
async function openRun(id) {
  try {
    const run = await api(`/api/runs/${encodeURIComponent(id)}`);
    const spent = { calls: 0, tokens: 0, cost: 0, known: true };
    const start = run.timeline.length ? run.timeline[0].t : 0;
    const rows = run.timeline.map((event) => {
      if (event.kind === "llm_end") {
        spent.calls += 1;
        spent.tokens += (event.input_tokens ?? 0) + (event.output_tokens ?? 0);
        if (event.cost_usd == null) spent.known = false; else spent.cost += event.cost_usd;
      }
      const budget = `${spent.calls} calls · ${spent.tokens.toLocaleString("en")} tokens · ${spent.known ? `$${spent.cost.toFixed(4)}` : "cost unknown"}`;
      return el("li", { "data-kind": event.kind },
        el("span", { class: "at" }, `+${(event.t - start).toFixed(2)} s`),
        el("div", {}, ...describeEvent(event)),
        el("span", { class: "spent" }, budget));
    });
    const timeline = $("#timeline");
    $(".timeline-title", timeline).textContent = `${run.question} · ${run.mode ?? "no mode"} · ${run.calls} calls · ${run.seconds.toFixed(1)} s`;
    $(".events", timeline).replaceChildren(...rows);
    timeline.hidden = false;
    timeline.focus();
  } catch (error) {
    notify(error.message);
  }
}

/** What one trace event says, as elements (every value from a model or a document as text). */
function describeEvent(e) {
  const what = (text) => el("span", { class: "what" }, text);
  const block = (label, text) => el("details", {}, el("summary", {}, label), el("pre", {}, String(text ?? "")));
  const depth = e.depth ? ` (depth ${e.depth})` : "";
  switch (e.kind) {
    case "run": return [what(`question: ${e.question}`)];
    case "mode": return [what(`mode ${e.mode}: ${e.reason}`)];
    case "phase": return [what(`phase ${e.name}${e.why ? `: ${e.why}` : ""}`)];
    case "llm_start": return [what(`call ${e.purpose}${e.label ? ` ${e.label}` : ""} → ${e.model}${depth}`), block("prompt", e.prompt)];
    case "llm_end": return [what(`reply to ${e.purpose}${e.label ? ` ${e.label}` : ""} in ${Number(e.seconds ?? 0).toFixed(1)} s, ` +
      `${e.input_tokens} in / ${e.output_tokens} out tokens${e.cached ? " (cached)" : ""}`), block("reply", e.reply)];
    case "root_turn": return [what(`root turn ${e.turn}${depth}`), el("pre", {}, e.reply)];
    case "code": return [what(`code, turn ${e.turn} block ${e.block}${depth}`), el("pre", {}, e.code)];
    case "output": return [what(`output${e.final != null ? " (FINAL)" : ""} in ${Number(e.seconds ?? 0).toFixed(2)} s`), el("pre", {}, e.output)];
    case "final": return [what("answer"), el("pre", {}, e.answer)];
    case "warning": case "notice": return [what(`${e.kind}: ${e.text}`)];
    default: {
      const { t, kind, depth: _, ...rest } = e;
      return [what(kind), el("pre", {}, JSON.stringify(rest))];
    }
  }
}

// --- wiring ---------------------------------------------------------------------------------
function wire() {
  for (const button of document.querySelectorAll("[data-step], [data-goto]")) {
    button.addEventListener("click", () => showStep(button.dataset.step || button.dataset.goto));
  }
  $("#upload-form").addEventListener("submit", (event) => event.preventDefault());
  $("#files").addEventListener("change", () => {  // files upload as soon as they are chosen
    upload($("#files").files).then(() => { $("#files").value = ""; });
  });
  const drop = $(".drop");
  drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    upload(event.dataTransfer.files);
  });
  $("#paste-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = new FormData();
    form.append("text", $("#paste-text").value);
    form.append("name", $("#paste-name").value);
    addDocuments(form).then(() => { $("#paste-text").value = ""; });
  });
  $("#token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem("longread-token", $("#token").value);
    $("#token-form").hidden = true;
    start();
  });
  $("#model").addEventListener("change", updateModes);
  $("#analyze-form").addEventListener("input", estimateSoon);
  $("#analyze-form").addEventListener("change", estimateSoon);
  $("#analyze-form").addEventListener("submit", (event) => { event.preventDefault(); analyze(); });
  $("#compare").addEventListener("click", compare);
  $("#follow-up-form").addEventListener("submit", (event) => { event.preventDefault(); followUp(); });
  $("#cancel").addEventListener("click", stopRuns);
  $("#viewer-close").addEventListener("click", () => { $("#viewer").hidden = true; });
  $("#question").addEventListener("input", () => resolved("question"));
  $("#follow-up").addEventListener("input", () => resolved("follow-up"));
  $("#question").addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); analyze(); }
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey && ["1", "2", "3", "4"].includes(event.key)) {
      event.preventDefault();
      showStep(["documents", "configure", "results", "runs"][Number(event.key) - 1]);
    } else if (event.key === "Escape") {
      if (!$("#viewer").hidden) $("#viewer").hidden = true;
      else if (state.controllers.length) stopRuns();
    }
  });
}

async function start() {
  try {
    await Promise.all([loadConfig(), loadDocuments()]);
    if (state.config.watching.length) setInterval(() => refreshDocuments().catch(() => {}), WATCH_REFRESH_MS);
  } catch (error) {
    notify(error.message);
  }
}

wire();
start().then(() => { if (location.hash === "#runs") showStep("runs"); });
