// The studio page: edit a variant file with checks as you type, preview the
// printable set, play a game against the computer and run simulations.
"use strict";

const TOKEN = new URLSearchParams(location.search).get("token") || "";
const CHECK_DELAY_MS = 400;
const POLL_MS = 300;

const $ = (id) => document.getElementById(id);

/** The variant being edited: its file and the text and version last saved. */
const studio = { name: "", folder: "", version: "", savedText: "", saving: false };
/** The game in the Play panel. */
const play = { id: null, seat: 0 };
/** The game entered in the Playtest panel. */
const recording = { id: null, going: false };
/** The simulation in the Simulate & compare panel. */
const run = { id: null, timer: null };

/** A new element with its text and class. */
function el(tag, text = "", className = "") {
  const element = document.createElement(tag);
  element.textContent = text;
  if (className) element.className = className;
  return element;
}

const count = (n) => Number(n).toLocaleString("en-US");

// ---------- Talking to the server ----------

/**
 * Calls the studio's API: GET without a body, POST with a JSON body.
 * `as` is "json", "text" or "response". A refusal becomes an Error with the
 * server's message, its status and its JSON body (`error.data`).
 */
async function api(path, body, as = "json") {
  const options = { headers: { "X-Studio-Token": TOKEN } };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  if (!response.ok) {
    const data = await response.json().catch(() => ({}));
    const error = new Error(data.error || `The studio answered “${response.status} ${response.statusText}”.`);
    error.status = response.status;
    error.data = data;
    throw error;
  }
  if (as === "response") return response;
  return as === "text" ? response.text() : response.json();
}

function setStatus(text, kind = "info") {
  $("status").textContent = text;
  $("status").className = `status ${kind}`;
}

function showError(error) {
  // fetch throws a TypeError when the server cannot be reached at all.
  const offline = error instanceof TypeError;
  setStatus(offline ? "Cannot reach the studio. Is “workbench studio” still running?" : error.message, "error");
}

// ---------- Unsaved edits kept in the browser ----------

/** Unsaved edits are kept per file (its folder and name), with the version of the file they were made on. */
const editsKey = () => `workbench-studio:${studio.folder}/${studio.name}:edits`;
const asideKey = () => `workbench-studio:${studio.name}:discarded`;

/** Stores a text under a key, or forgets the key when text is null. */
function remember(key, text) {
  try {
    if (text === null) localStorage.removeItem(key);
    else localStorage.setItem(key, text);
  } catch {
    // Storage is off or full: the edits still live in the page.
  }
}

function recall(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Keeps the editor text as unsaved edits of the version the page holds (null: there are none). */
function rememberEdits(text) {
  remember(editsKey(), text === null ? null : JSON.stringify({ version: studio.version, text }));
}

/** The unsaved edits kept for this file, {version, text}, or null. */
function recallEdits() {
  try {
    const kept = JSON.parse(recall(editsKey()));
    return kept && typeof kept.text === "string" && typeof kept.version === "string" ? kept : null;
  } catch {
    return null;
  }
}

// ---------- Editor ----------

/** Line number -> messages of the problems found there by the last check. */
let badLines = new Map();
let checkTimer = null;
let checkSeq = 0;

const isModified = () => $("editor").value !== studio.savedText;

/** Everything that follows a change of the editor text. */
function onEdit({ now = false } = {}) {
  const text = $("editor").value;
  rememberEdits(text === studio.savedText ? null : text);
  drawGutter();
  showModified();
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, now ? 0 : CHECK_DELAY_MS);
}

function showModified() {
  const modified = isModified();
  $("save").disabled = !modified;
  $("modified").hidden = !modified;
  for (const warning of document.querySelectorAll(".unsaved-warning")) warning.hidden = !modified;
}

/** One numbered div per line, the located problems marked "bad". */
function drawGutter() {
  const gutter = $("gutter");
  const lines = $("editor").value.split("\n").length;
  if (gutter.childElementCount !== lines) {
    gutter.replaceChildren(...Array.from({ length: lines }, (_, i) => el("div", String(i + 1))));
  }
  Array.from(gutter.children).forEach((line, i) => {
    const messages = badLines.get(i + 1);
    line.classList.toggle("bad", Boolean(messages));
    line.title = messages ? messages.join("\n") : "";
  });
  gutter.scrollTop = $("editor").scrollTop;
}

/** Puts the caret at the start of a line and scrolls it into view. */
function goToLine(line) {
  const editor = $("editor");
  const lines = editor.value.split("\n");
  const target = Math.min(Math.max(line, 1), lines.length);
  const at = lines.slice(0, target - 1).reduce((sum, text) => sum + text.length + 1, 0);
  editor.focus();
  editor.setSelectionRange(at, at);
  const height = parseFloat(getComputedStyle(editor).lineHeight);
  editor.scrollTop = Math.max(0, (target - 1) * height - editor.clientHeight / 3);
}

/** Checks the text; when it is valid, the preview follows. Late answers are ignored. */
async function check() {
  const seq = ++checkSeq;
  const text = $("editor").value;
  try {
    const result = await api("/api/validate", { text });
    if (seq !== checkSeq) return;
    showProblems(result);
    $("preview-stale").hidden = result.ok || !$("preview").srcdoc;
    if (result.ok) refreshPreview(text);
  } catch (error) {
    if (seq === checkSeq) showError(error);
  }
}

function showProblems({ ok, problems = [], summary = [] }) {
  badLines = new Map();
  $("problems").replaceChildren(...problems.map((problem) => {
    const item = el("li", problem.text, "problem");
    if (problem.line != null) item.dataset.line = problem.line;
    if (!problem.here) {
      item.classList.add("elsewhere");
      item.title = `This problem is in ${problem.file}, which this file builds on.`;
    } else if (problem.line != null) {
      item.tabIndex = 0;
      item.title = `Go to line ${problem.line}`;
      badLines.set(problem.line, [...(badLines.get(problem.line) || []), problem.message]);
    }
    return item;
  }));
  $("valid").hidden = !ok;
  $("summary").replaceChildren(...summary.flatMap(([label, text]) => [el("dt", label), el("dd", text)]));
  drawGutter();
}

function onProblemPicked(event) {
  if (event.type === "keydown" && event.key !== "Enter") return;
  const item = event.target.closest("li.problem[tabindex]");
  if (item) goToLine(Number(item.dataset.line));
}

// ---------- Saving ----------

/** Saves the editor text over the file at `version` (the one the page last saw); `force` saves even without changes. */
async function save({ force = false, version = studio.version } = {}) {
  if (studio.saving || (!force && !isModified())) return;
  studio.saving = true;
  const text = $("editor").value;
  setStatus("Saving…");
  try {
    const result = await api("/api/save", { text, version });
    rememberEdits(null);
    studio.version = result.version;
    studio.savedText = text;
    $("restored").hidden = true;
    $("set-aside").hidden = true;
    rememberEdits(isModified() ? $("editor").value : null);
    showModified();
    setStatus(`Saved to ${result.saved}`, "ok");
    api("/api/variant").then(fillChoices).catch(showError); // a file made valid gets its table's choices
  } catch (error) {
    if (error.status === 409 && error.data.conflict) showConflict(error.data);
    else showError(error);
  } finally {
    studio.saving = false;
  }
}

let conflict = null;

function showConflict(data) {
  conflict = data;
  const lines = data.diff.split("\n").filter((line, i, all) => line || i < all.length - 1);
  $("conflict-diff").replaceChildren(...lines.map((line) => el("span", line, diffKind(line))));
  $("conflict-kept").textContent = keptWords(data);
  $("conflict-kept").hidden = !data.kept && !data.kept_other;
  setStatus(
    data.kept
      ? `The file changed on disk while you were saving: your edit is kept in ${data.kept}.`
      : "The file changed on disk since you opened it.",
    "error",
  );
  $("conflict").showModal();
}

/** Where a save that met another program's write kept the files (`kept`: the edit; `kept_other`: theirs), in words. */
function keptWords(data) {
  const words = ["Another program saved this file just as you were saving it."];
  if (data.kept) words.push(`Your edit is not lost: it is kept in ${data.kept}.`);
  if (data.kept_other) words.push(`An earlier version that program saved is kept in ${data.kept_other}.`);
  return words.join(" ");
}

function diffKind(line) {
  if (line.startsWith("+++") || line.startsWith("---")) return "head";
  if (line.startsWith("@@")) return "hunk";
  if (line.startsWith("+")) return "add";
  return line.startsWith("-") ? "del" : "";
}

function overwriteDisk() {
  $("conflict").close();
  save({ force: true, version: conflict.version });
}

/** Takes the file on disk; the user's edits are put aside, never dropped silently. */
function loadDisk() {
  $("conflict").close();
  remember(asideKey(), $("editor").value);
  rememberEdits(null);
  studio.version = conflict.version;
  studio.savedText = conflict.disk;
  $("editor").value = conflict.disk;
  $("restored").hidden = true;
  $("set-aside").hidden = false;
  onEdit({ now: true });
  setStatus("Loaded the file on disk.", "ok");
}

function bringBack() {
  const aside = recall(asideKey());
  if (aside !== null) $("editor").value = aside;
  remember(asideKey(), null);
  $("set-aside").hidden = true;
  onEdit({ now: true });
}

/** Drops the restored edits for the file as it is on disk now. */
async function discardRestored() {
  try {
    const variant = await api("/api/variant");
    Object.assign(studio, { version: variant.version, savedText: variant.text });
    $("editor").value = variant.text;
    $("restored").hidden = true;
    onEdit({ now: true });
  } catch (error) {
    showError(error);
  }
}

// ---------- Preview and PDF ----------

let previewSeq = 0;

async function refreshPreview(text) {
  const seq = ++previewSeq;
  try {
    const result = await api("/api/preview", { text });
    if (seq !== previewSeq) return;
    if (result.ok) showInFrame($("preview"), result.html);
    else showProblems(result);
  } catch (error) {
    if (seq === previewSeq) showError(error);
  }
}

/**
 * Shows a page in a sandboxed frame, keeping its scroll position. The sandbox
 * allows the same origin (so the position can be read) but never scripts.
 */
function showInFrame(frame, html) {
  const scroller = () => frame.contentDocument && frame.contentDocument.scrollingElement;
  const top = scroller() ? scroller().scrollTop : 0;
  frame.addEventListener("load", () => {
    if (scroller()) scroller().scrollTop = top;
  }, { once: true });
  frame.srcdoc = html;
  frame.hidden = false;
}

async function downloadPdf() {
  const button = $("download-pdf");
  button.disabled = true;
  setStatus("Making the PDF…");
  try {
    const response = await api("/api/pdf", { text: $("editor").value }, "response");
    const link = el("a");
    link.href = URL.createObjectURL(await response.blob());
    link.download = pdfName(response.headers.get("Content-Disposition"));
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 60000);
    setStatus(`Downloaded ${link.download}`, "ok");
  } catch (error) {
    showError(error);
    if (error.data && error.data.problems) showProblems({ ok: false, problems: error.data.problems });
  } finally {
    button.disabled = false;
  }
}

/** The file name the server suggests, else the variant's name with .pdf. */
function pdfName(disposition) {
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition || "");
  return match ? decodeURIComponent(match[1]) : `${studio.name.replace(/\.ya?ml$/i, "")}.pdf`;
}

// ---------- Play ----------

async function startGame(event) {
  event.preventDefault();
  play.seat = Number($("play-seat").value);
  await playStep("/api/play", {
    players: Number($("play-players").value),
    seed: Number($("play-seed").value),
    bots: $("play-bots").value,
    seat: play.seat,
  });
}

async function playStep(path, body) {
  setPlayBusy(true);
  try {
    showGame(await api(path, body));
  } catch (error) {
    showError(error);
  } finally {
    setPlayBusy(false);
  }
}

function setPlayBusy(busy) {
  $("play-start").disabled = busy;
  for (const button of $("play-options").querySelectorAll("button")) button.disabled = busy;
}

function showGame(game) {
  play.id = game.id;
  const question = game.state === "asking" ? game.question : null;
  if (question) play.seat = question.seat;
  $("play-message").textContent = game.message || "";
  $("play-message").hidden = !game.message;
  $("play-question").textContent = question ? question.prompt : "";
  drawDice(question && question.dice ? question.dice : []);
  $("play-options").replaceChildren(...(question ? question.options : []).map((option, index) => {
    const button = el("button", String(option));
    button.type = "button";
    button.addEventListener("click", () => playStep(`/api/play/${play.id}/answer`, { choice: index, number: question.number }));
    return button;
  }));
  drawTable($("play-table"), (question && question.table) || (game.result && game.result.table));
  drawLog(game.log || []);
  drawResult(game);
  if (game.state === "failed") setStatus(game.message || "The game stopped because of an error.", "error");
  // The bots are still thinking (a long search): ask again shortly, until the game comes back to you or ends.
  if (game.state === "playing") setTimeout(() => playStep(`/api/play/${game.id}`), 500);
}

// ---------- Playtest: a game at the table, entered as it happens ----------

async function startRecording(event) {
  event.preventDefault();
  if (recording.going && !confirm("A game is being entered: stop it (its rounds entered are kept, unfinished) and start another?")) return;
  await recordStep("/api/playtest", {
    players: Number($("playtest-players").value),
    names: $("playtest-names").value,
    notes: $("playtest-notes").value,
  });
}

async function resumeRecording(event) {
  event.preventDefault();
  if (recording.going && !confirm("A game is being entered: stop it (its rounds entered are kept, unfinished) and resume the other?")) return;
  await recordStep("/api/playtest", { resume: $("playtest-resume").value });
}

async function recordStep(path, body) {
  setRecordBusy(true);
  try {
    showRecording(await api(path, body));
  } catch (error) {
    // an entry that cannot be taken is refused at once: say why, and ask again
    if (error.status === 400 && recording.id) {
      $("playtest-message").textContent = error.message;
      $("playtest-message").hidden = false;
    } else {
      showError(error);
    }
  } finally {
    setRecordBusy(false);
  }
}

function setRecordBusy(busy) {
  for (const id of ["playtest-start", "playtest-enter", "playtest-resume-start"]) $(id).disabled = busy;
  for (const button of $("playtest-options").querySelectorAll("button")) button.disabled = busy;
}

function showRecording(game) {
  recording.id = game.id;
  const asking = game.state === "asking";
  const question = asking ? game.question : null;
  const entry = asking ? game.entry : null;
  $("playtest-message").textContent = game.message || "";
  $("playtest-message").hidden = !game.message;
  $("playtest-question").replaceChildren();
  if (question) {
    const who = question.name ? `Seat ${question.seat} (${question.name}): ` : `Seat ${question.seat}: `;
    $("playtest-question").append(el("strong", who), question.prompt, " ", ...diceOf(question.dice || []));
  } else if (entry) {
    $("playtest-question").append(entry.prompt);
  }
  const answer = (body) => recordStep(`/api/play/${recording.id}/answer`, body);
  const choices = question ? question.options : entry && entry.options.length ? entry.options : [];
  $("playtest-options").replaceChildren(...choices.map((option, index) => {
    const button = el("button", String(option));
    button.type = "button";
    const card = entry && entry.numbered ? String(index + 1) : String(option).replace(/ \(\d+ in the \w+\)$/, "");
    button.addEventListener("click", () => answer(question ? { choice: index, number: question.number } : { entry: card, number: entry.number }));
    return button;
  }));
  const dice = entry && !entry.options.length;
  $("playtest-entry").hidden = !dice;
  if (dice) {
    $("playtest-entry-label").textContent = entry.count === 1 ? `The die (1 to ${entry.sides})` : `${entry.count} dice (1 to ${entry.sides}, with spaces)`;
    $("playtest-faces").value = "";
    $("playtest-faces").focus();
    $("playtest-entry").onsubmit = (event) => {
      event.preventDefault();
      answer({ entry: $("playtest-faces").value, number: entry.number });
    };
  }
  const going = ["asking", "playing"].includes(game.state);
  $("playtest-stop").disabled = !going;
  recording.going = going;  // a new recording asks before it leaves this one
  // while the game goes on, the holdings as last shown; once it stops, the game as saved (below) says it all
  drawTable($("playtest-table"), going ? game.table : null, question ? question.seat : null);
  const saved = game.saved;
  $("playtest-saved").textContent = saved ? `Saved in playtests/${saved.file} with ${saved.length}${game.state === "over" ? ": the game is over" : ""}.` : "";
  drawTable($("playtest-saved-table"), saved && game.state !== "asking" && game.state !== "playing" ? saved.table : null, null);
  drawLog(game.log || [], $("playtest-log"), null);
  if (game.state === "playing") setTimeout(() => recordStep(`/api/play/${game.id}`), 500);
  if (!["asking", "playing"].includes(game.state)) listUnfinished();
}

async function stopRecording() {
  if (recording.id) await recordStep(`/api/play/${recording.id}/stop`, {});
}

/** Offers the unfinished games of playtests/ to resume. */
async function listUnfinished() {
  try {
    const { unfinished } = await api("/api/playtests");
    const labels = unfinished.map((game) => `${game.file}${game.table ? ` (${game.table})` : ""}`);
    $("playtest-resume").replaceChildren(...unfinished.map((game, index) => new Option(labels[index], game.file)));
    $("playtest-resume-form").hidden = unfinished.length === 0;
  } catch (error) {
    showError(error);
  }
}

const PIPS = {
  1: [[2, 2]],
  2: [[1, 1], [3, 3]],
  3: [[1, 1], [2, 2], [3, 3]],
  4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
  6: [[1, 1], [1, 2], [1, 3], [3, 1], [3, 2], [3, 3]],
};

/** Draws dice: pips for 1 to 6, the number for anything else. */
function drawDice(values) {
  $("play-dice").replaceChildren(...diceOf(values));
}

function diceOf(values) {
  return values.map((value) => {
    const pips = PIPS[value];
    if (!pips) return el("span", String(value), "die plain");
    const svg = svgElement("svg", { class: "die", viewBox: "0 0 40 40", role: "img", "aria-label": `die showing ${value}` });
    svg.append(svgElement("rect", { x: 1, y: 1, width: 38, height: 38, rx: 7 }));
    for (const [x, y] of pips) svg.append(svgElement("circle", { cx: x * 10, cy: y * 10, r: 3.6 }));
    return svg;
  });
}

function svgElement(tag, attributes) {
  const element = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

/** An HTML table from {headers, rows}; the human's seat row is highlighted (none: `mine` null). */
function drawTable(table, data, mine = play.seat) {
  table.replaceChildren();
  if (!data) return;
  const seatColumn = Math.max(0, data.headers.findIndex((header) => String(header).toLowerCase() === "seat"));
  const row = (cells, tag) => {
    const tr = el("tr");
    tr.append(...cells.map((cell) => el(tag, String(cell))));
    return tr;
  };
  table.createTHead().append(row(data.headers, "th"));
  const body = table.createTBody();
  for (const cells of data.rows) {
    const tr = row(cells, "td");
    if (mine !== null && String(cells[seatColumn]) === String(mine)) {
      tr.className = "you";
      tr.title = "Your seat";
    }
    body.append(tr);
  }
}

/** The event lines, newest at the bottom; a rule between rounds, the human's lines in colour. */
function drawLog(lines, log = $("play-log"), seat = play.seat) {
  const mine = seat === null ? null : new RegExp(`\\bseat ${seat}\\b`);
  let round = null;
  log.replaceChildren(...lines.map((line) => {
    const div = el("div", line, mine && mine.test(line) ? "mine" : "");
    const match = /^round (\d+)/i.exec(line);
    if (match && match[1] !== round) {
      if (round !== null) div.classList.add("new-round");
      round = match[1];
    }
    return div;
  }));
  log.scrollTop = log.scrollHeight;
}

function drawResult(game) {
  const result = $("play-result");
  result.replaceChildren();
  if (game.state === "failed") result.append(el("span", "The game stopped because of an error."));
  if (game.state !== "over" || !game.result) return;
  const { winners = [], ending: reason, length } = game.result;
  const seats = winners.map((seat) => `seat ${seat}`).join(", ") || "nobody";
  const won = winners.map(Number).includes(play.seat);
  result.append(
    el("span", `Game over after ${length}: ${reason}. Winner(s): ${seats}.`),
    " ",
    el("strong", won ? "You won!" : "You lost", won ? "won" : "lost"),
  );
}

// ---------- Simulate and compare ----------

async function startRun(event) {
  event.preventDefault();
  const kind = $("run-kind").value;
  const body = {
    kind,
    games: Number($("run-games").value),
    players: Number($("run-players").value),
    seed: Number($("run-seed").value),
    bots: $("run-bots").value,
  };
  if (kind === "compare") body.against = $("run-against").value;
  $("run-lines").textContent = "";
  $("run-report").hidden = true;
  try {
    run.id = (await api("/api/run", body)).id;
    setRunning(true);
    await pollRun(run.id);
  } catch (error) {
    $("run-status").textContent = error.message; // not the last run's line: this one never started
    showError(error);
  }
}

function setRunning(running) {
  $("run-start").disabled = running;
  $("run-cancel").disabled = !running;
}

/** Follows a run until it stops, then shows its report. */
async function pollRun(id) {
  try {
    const state = await api(`/api/run/${id}`);
    if (id !== run.id) return;
    showRun(state);
    if (state.state === "running") {
      run.timer = setTimeout(() => pollRun(id), POLL_MS);
      return;
    }
    setRunning(false);
    if (state.state === "failed") setStatus(state.message || "The run failed.", "error");
    else if (state.message) setStatus(state.message);
    if (state.state === "done" || (state.state === "cancelled" && state.done > 0)) {
      showInFrame($("run-report"), await api(`/api/run/${id}/report`, undefined, "text"));
    }
  } catch (error) {
    setRunning(false);
    showError(error);
  }
}

const RUN_ENDINGS = { done: "finished", cancelled: "stopped", failed: "failed" };

function showRun(state) {
  $("run-progress").max = Math.max(state.total, 1);
  $("run-progress").value = state.done;
  const label = state.label ? `, ${state.label}` : "";
  const ending = RUN_ENDINGS[state.state] ? ` (${RUN_ENDINGS[state.state]})` : "";
  $("run-status").textContent = `${count(state.done)} of ${count(state.total)} games${label}${ending}`;
  $("run-lines").textContent = (state.lines || []).join("\n");
}

async function cancelRun() {
  $("run-cancel").disabled = true;
  try {
    showRun(await api(`/api/run/${run.id}/cancel`, {}));
  } catch (error) {
    showError(error);
  }
}

// ---------- Page ----------

function selectTab(tab) {
  for (const other of document.querySelectorAll('[role="tab"]')) {
    const selected = other === tab;
    other.setAttribute("aria-selected", String(selected));
    other.tabIndex = selected ? 0 : -1;
    $(other.getAttribute("aria-controls")).hidden = !selected;
  }
}

/** Left and right arrows move between tabs, as in any tab list. */
function onTabKey(event) {
  const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
  if (!step) return;
  const tabs = Array.from(document.querySelectorAll('[role="tab"]'));
  const next = tabs[(tabs.indexOf(event.target) + step + tabs.length) % tabs.length];
  next.focus();
  selectTab(next);
}

function fillSelect(select, values, chosen) {
  select.replaceChildren(...values.map((value) => new Option(value, value, false, value === chosen)));
}

/** Fills the Play and Simulate inputs from what the variant allows. */
/** Fills the play and run choices from the file as saved (an invalid file has no table yet: the choices wait). */
function fillChoices(variant) {
  if (variant.players === null) return;
  const { min, max } = variant.players;
  for (const id of ["play-players", "playtest-players", "run-players"]) Object.assign($(id), { min, max, value: variant.players.default });
  $("play-seat").max = variant.players.default - 1;
  const bot = variant.default_bot;
  fillSelect($("play-bots"), variant.bots, bot);
  fillSelect($("run-bots"), variant.bots, bot);
  const others = variant.files.filter((file) => file !== variant.name);
  fillSelect($("run-against"), others, others[0]);
}

async function load() {
  if (!TOKEN) {
    setStatus("Open the studio with the link that “workbench studio” printed: it carries a key.", "error");
    return;
  }
  try {
    const variant = await api("/api/variant");
    Object.assign(studio, { name: variant.name, folder: variant.folder, version: variant.version, savedText: variant.text });
    $("variant-title").textContent = variant.variant ?? variant.name;
    $("variant-file").textContent = `${variant.folder}/${variant.name}`;
    document.title = `${variant.variant ?? variant.name} · Studio`;
    fillChoices(variant);
    listUnfinished();
    const kept = recallEdits();
    const restored = kept !== null && kept.text !== variant.text;
    // Edits made on an older version of the file keep that version: saving them shows the changes made on disk since.
    if (restored) studio.version = kept.version;
    $("editor").value = restored ? kept.text : variant.text;
    $("restored-changed").hidden = !restored || kept.version === variant.version;
    $("restored").hidden = !restored;
    onEdit({ now: true });
  } catch (error) {
    showError(error);
  }
}

function wire() {
  const editor = $("editor");
  editor.addEventListener("input", () => onEdit());
  editor.addEventListener("scroll", () => { $("gutter").scrollTop = editor.scrollTop; });
  $("problems").addEventListener("click", onProblemPicked);
  $("problems").addEventListener("keydown", onProblemPicked);
  $("save").addEventListener("click", () => save());
  document.addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
      event.preventDefault();
      save();
    }
  });
  $("discard-restored").addEventListener("click", discardRestored);
  $("bring-back").addEventListener("click", bringBack);
  $("conflict-overwrite").addEventListener("click", overwriteDisk);
  $("conflict-load").addEventListener("click", loadDisk);
  $("conflict-cancel").addEventListener("click", () => $("conflict").close());
  for (const tab of document.querySelectorAll('[role="tab"]')) {
    tab.addEventListener("click", () => selectTab(tab));
    tab.addEventListener("keydown", onTabKey);
  }
  $("download-pdf").addEventListener("click", downloadPdf);
  $("play-form").addEventListener("submit", startGame);
  $("play-players").addEventListener("input", () => { $("play-seat").max = Number($("play-players").value) - 1; });
  $("playtest-form").addEventListener("submit", startRecording);
  $("playtest-resume-form").addEventListener("submit", resumeRecording);
  $("playtest-stop").addEventListener("click", stopRecording);
  $("run-form").addEventListener("submit", startRun);
  $("run-cancel").addEventListener("click", cancelRun);
  $("run-kind").addEventListener("change", () => { $("run-against-field").hidden = $("run-kind").value !== "compare"; });
}

wire();
load();
