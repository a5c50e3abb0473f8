// sudolab's page. This file only draws and forwards: every answer (parsing,
// clashes, candidates, solving, counting, checking, hints, generation, traces
// and their replay) comes from sudolab's C core in sudolab.wasm
// (web/wasm_api.c), which runs in Web Workers (worker.js) so that the page
// answers at once whatever they compute.
"use strict";

// --- the core, in workers --------------------------------------------------

// Longest budget the page accepts: every computation it starts has an end.
const MAX_BUDGET_MS = 600000;

// One worker and its calls. stop() ends the running call at once by
// terminating the worker, and starts a fresh one.
class Engine {
    constructor(name, module) {
        this.name = name;
        this.module = module;
        this.next = 1;
        this.pending = new Map();
        this.spawn();
    }

    spawn() {
        this.worker = new Worker("worker.js");
        this.ready = new Promise((resolve) => {
            this.worker.onmessage = (e) => {
                const m = e.data;
                if (m.type === "ready") {
                    this.tickNs = m.tick_ns;
                    this.isolated = m.isolated;
                    resolve();
                    return;
                }
                const p = this.pending.get(m.id);
                if (!p) return;
                if (m.type === "progress") {
                    if (p.onProgress) p.onProgress(m);
                    return;
                }
                this.pending.delete(m.id);
                if (m.result && m.result.trapped) this.restart();
                p.resolve(m.result);
                this.mark();
            };
        });
        this.worker.postMessage({ type: "init", module: this.module });
    }

    get busy() {
        return this.pending.size > 0;
    }

    // On the page, for tests and tools: calls still out on this worker.
    mark() {
        const key = `pending${this.name[0].toUpperCase()}${this.name.slice(1)}`;
        if (this.pending.size) document.body.dataset[key] = this.pending.size;
        else delete document.body.dataset[key];
    }

    // Resolves with the call's JSON answer, or {ok: false, stopped: true}.
    async call(name, text, args = [], onProgress = null) {
        await this.ready;
        const id = this.next++;
        return new Promise((resolve) => {
            this.pending.set(id, { resolve, onProgress });
            this.mark();
            this.worker.postMessage({ id, name, text, args });
        });
    }

    restart() {
        this.worker.terminate();
        const stopped = [...this.pending.values()];
        this.pending.clear();
        this.spawn();
        for (const p of stopped) p.resolve({ ok: false, stopped: true, why: "stopped" });
        this.mark();
    }
}

const engines = {
    edit: null, // quick answers while typing: parse, clashes, candidates, check, hint
    job: null, // solve, count, generate, grade, batch
    replay: null, // traces and their replay
};

// --- page state -----------------------------------------------------------

const $ = (id) => document.getElementById(id);

const state = {
    br: 3,
    bc: 3,
    variant: 0,
    n: 9,
    symbols: "123456789",
    clues: [], // values 0..n
    entries: [], // the player's values (or the solver's), 0 = blank
    notes: [], // per cell, a bit mask of pencilled values (bit v-1)
    given: null, // a pencil-mark puzzle's candidates per cell (bit v-1), else null
    fromSolver: new Set(),
    conflicts: new Set(),
    wrong: new Set(),
    hinted: new Set(),
    pattern: new Set(),
    selected: 0,
    notesMode: false,
    solution: null,
    solvers: [],
    counters: [],
    version: 0, // bumped by every change of the position
    undo: [],
    redo: [],
};

function message(text, isError) {
    const m = $("message");
    m.textContent = text;
    m.classList.toggle("error", !!isError);
}

function symbolOf(v) {
    return v ? state.symbols[v - 1] : ".";
}

function popcount(m) {
    let k = 0;
    for (; m; m &= m - 1) k++;
    return k;
}

function valueOf(ch) {
    const i = state.symbols.indexOf(ch.toUpperCase());
    return i >= 0 ? i + 1 : -1;
}

// The puzzle as the core reads it: its clue line, or for a pencil-mark
// puzzle the candidate form (each cell's n symbols, '.' where removed).
function puzzleLine() {
    if (state.given) {
        const cell = (m) => [...state.symbols].map((ch, k) => ((m >> k) & 1 ? ch : "."));
        return state.given.map((m) => cell(m).join("")).join("");
    }
    return state.clues.map(symbolOf).join("");
}

function boardLine() {
    return state.clues.map((c, i) => symbolOf(c || state.entries[i])).join("");
}

function valueAt(i) {
    return state.clues[i] || state.entries[i];
}

function shapeArgs() {
    return [state.br, state.bc, state.variant];
}

function solverByName(name) {
    return state.solvers.find((s) => s.name === name);
}

function fits(s, n, variant) {
    return s.min_n <= n && n <= s.max_n && (!variant || s.diagonal);
}

function shapeName() {
    return `${state.n}×${state.n}${state.variant ? " diagonal" : ""}`;
}

function cellName(i) {
    return `row ${Math.floor(i / state.n) + 1}, column ${(i % state.n) + 1}`;
}

function shortCell(i) {
    return `r${Math.floor(i / state.n) + 1}c${(i % state.n) + 1}`;
}

function say(id, text, cls) {
    const out = $(id);
    for (const key of ["verdict", "technique", "cell", "puzzle", "seed", "line"])
        delete out.dataset[key];
    out.textContent = text;
    out.className = `out${cls ? ` ${cls}` : ""}`;
}

// --- undo and redo ----------------------------------------------------------

function snapshot() {
    return {
        br: state.br,
        bc: state.bc,
        variant: state.variant,
        symbols: state.symbols,
        clues: state.clues.slice(),
        given: state.given && state.given.slice(),
        entries: state.entries.slice(),
        notes: state.notes.slice(),
        fromSolver: [...state.fromSolver],
        solution: state.solution,
    };
}

function restore(s) {
    const reshaped = s.br !== state.br || s.bc !== state.bc || s.variant !== state.variant;
    const otherPuzzle =
        s.clues.join() !== state.clues.join() || String(s.given) !== String(state.given);
    setShape(s.br, s.bc, s.variant);
    state.symbols = s.symbols;
    state.clues = s.clues.slice();
    state.given = s.given && s.given.slice();
    state.entries = s.entries.slice();
    state.notes = s.notes.slice();
    state.fromSolver = new Set(s.fromSolver);
    state.solution = s.solution;
    $("show-solution").disabled = !state.solution;
    if (reshaped || $("board").children.length !== state.n) {
        buildBoard($("board"), true);
        buildKeypad();
        shapeChanged();
    } else if (otherPuzzle) {
        fillReplaySolvers(); // the traces were of the other puzzle
    }
    state.selected = Math.min(state.selected, state.n * state.n - 1);
    positionChanged();
}

// Call before every change of the position: it can then be undone.
function remember() {
    state.undo.push(snapshot());
    if (state.undo.length > 500) state.undo.shift();
    state.redo = [];
    setUndoButtons();
}

function undoRedo(from, to, what) {
    if (!from.length) {
        message(`Nothing to ${what}.`);
        return;
    }
    to.push(snapshot());
    restore(from.pop());
    setUndoButtons();
    message(what === "undo" ? "Undone." : "Redone.");
}

function setUndoButtons() {
    $("undo").disabled = !state.undo.length;
    $("redo").disabled = !state.redo.length;
}

// --- drawing --------------------------------------------------------------

function buildBoard(el, interactive) {
    const n = state.n;
    el.style.setProperty("--n", n);
    el.replaceChildren();
    for (let r = 0; r < n; r++) {
        const row = document.createElement("div");
        row.setAttribute("role", "row");
        row.className = "board-row";
        for (let c = 0; c < n; c++) {
            const i = r * n + c;
            const cell = document.createElement("div");
            cell.className = "cell";
            // the player's board is a grid to move in; a replay, a table to read
            cell.setAttribute("role", interactive ? "gridcell" : "cell");
            if (c % state.bc === state.bc - 1) cell.classList.add("box-right");
            if (r % state.br === state.br - 1) cell.classList.add("box-bottom");
            if (c === n - 1) cell.classList.add("last-col");
            if (r === n - 1) cell.classList.add("last-row");
            if (state.variant && (r === c || r === n - 1 - c)) cell.classList.add("diag");
            cell.dataset.index = i;
            if (interactive) {
                cell.tabIndex = -1;
                cell.addEventListener("mousedown", (e) => {
                    e.preventDefault();
                    select(i, true);
                });
            }
            row.appendChild(cell);
        }
        el.appendChild(row);
    }
}

function boardCells(id) {
    return $(id).querySelectorAll(".cell");
}

function isPeer(a, b) {
    const n = state.n;
    const ra = Math.floor(a / n),
        ca = a % n,
        rb = Math.floor(b / n),
        cb = b % n;
    return (
        ra === rb ||
        ca === cb ||
        (Math.floor(ra / state.br) === Math.floor(rb / state.br) &&
            Math.floor(ca / state.bc) === Math.floor(cb / state.bc)) ||
        (state.variant && ra === ca && rb === cb) ||
        (state.variant && ra === n - 1 - ca && rb === n - 1 - cb)
    );
}

function drawNotes(cell, mask) {
    const box = document.createElement("span");
    box.className = "notes";
    box.setAttribute("aria-hidden", "true");
    for (let v = 1; v <= state.n; v++) {
        const s = document.createElement("span");
        s.textContent = mask & (1 << (v - 1)) ? symbolOf(v) : "";
        box.appendChild(s);
    }
    cell.replaceChildren(box);
}

function noteList(mask) {
    const vals = [];
    for (let v = 1; v <= state.n; v++) if (mask & (1 << (v - 1))) vals.push(symbolOf(v));
    return vals;
}

function drawBoard() {
    const cells = boardCells("board");
    const sel = state.selected;
    const selValue = sel >= 0 ? valueAt(sel) : 0;
    for (let i = 0; i < cells.length; i++) {
        const cell = cells[i];
        const clue = state.clues[i],
            entry = state.entries[i];
        const v = clue || entry;
        cell.dataset.value = v ? symbolOf(v) : ".";
        if (v) cell.textContent = symbolOf(v);
        else if (state.notes[i]) drawNotes(cell, state.notes[i]);
        else cell.textContent = "";
        cell.classList.toggle("clue", !!clue);
        cell.classList.toggle("entry", !clue && !!entry && !state.fromSolver.has(i));
        cell.classList.toggle("from-solver", !clue && state.fromSolver.has(i));
        cell.classList.toggle("conflict", state.conflicts.has(i));
        cell.classList.toggle("wrong", state.wrong.has(i));
        cell.classList.toggle("hinted", state.hinted.has(i));
        cell.classList.toggle("pattern", state.pattern.has(i) && !state.hinted.has(i));
        cell.classList.toggle("selected", i === sel);
        cell.classList.toggle("same", !!selValue && i !== sel && v === selValue);
        cell.classList.toggle("peer", sel >= 0 && i !== sel && isPeer(i, sel));
        cell.tabIndex = i === sel ? 0 : -1;
        cell.setAttribute("aria-selected", i === sel ? "true" : "false");
        let label = `${cellName(i)}: `;
        if (v) label += `${symbolOf(v)}${clue ? ", clue" : ""}`;
        else if (state.notes[i]) label += `blank, notes ${noteList(state.notes[i]).join(" ")}`;
        else label += "blank";
        if (state.conflicts.has(i)) label += ", clashes";
        if (state.wrong.has(i)) label += ", wrong";
        cell.setAttribute("aria-label", label);
    }
    drawKeypadCounts();
}

function buildKeypad() {
    const pad = $("keypad");
    pad.replaceChildren();
    for (let v = 1; v <= state.n; v++) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "key";
        b.dataset.value = v;
        const digit = document.createElement("span");
        digit.textContent = symbolOf(v);
        // named by its visible text, "5 3 left" read out as the value and
        // how many are still to place
        const left = document.createElement("small");
        left.className = "left";
        const word = document.createElement("span");
        word.className = "sr-only";
        word.textContent = " left";
        b.append(digit, " ", left, word);
        b.addEventListener("click", () => enter(v));
        pad.appendChild(b);
    }
    const erase = document.createElement("button");
    erase.type = "button";
    erase.className = "key";
    erase.textContent = "⌫";
    erase.setAttribute("aria-label", "Erase the selected cell");
    erase.addEventListener("click", () => enter(0));
    pad.appendChild(erase);
}

// How many of each value are still to place, on the keypad.
function drawKeypadCounts() {
    const placed = new Array(state.n + 1).fill(0);
    for (let i = 0; i < state.clues.length; i++) placed[valueAt(i)]++;
    for (const b of $("keypad").querySelectorAll("button[data-value]")) {
        const v = Number(b.dataset.value);
        const left = Math.max(0, state.n - placed[v]);
        b.querySelector(".left").textContent = left;
        b.classList.toggle("done", left === 0);
    }
}

// --- editing --------------------------------------------------------------

async function refreshConflicts() {
    const version = state.version;
    const r = await engines.edit.call("web_conflicts", boardLine(), shapeArgs());
    if (version !== state.version) return;
    state.conflicts = new Set(r.ok ? r.cells : []);
    drawBoard();
    document.body.dataset.checked = version;
    window.checkedAt = performance.now();
}

function positionChanged() {
    state.version++;
    state.wrong.clear();
    state.hinted.clear();
    state.pattern.clear();
    drawBoard();
    $("puzzle-line").value = puzzleLine();
    save();
    refreshConflicts();
}

function select(i, focus) {
    state.selected = i;
    drawBoard();
    if (focus) boardCells("board")[i].focus();
}

function enter(v) {
    const i = state.selected;
    if (i < 0) {
        message("Pick a cell first.");
        return;
    }
    if (state.clues[i]) {
        message("That cell is a clue: clues are locked.");
        return;
    }
    if (state.notesMode && v) {
        if (state.entries[i]) {
            message("Notes go in blank cells: erase the value first.");
            return;
        }
        remember();
        state.notes[i] ^= 1 << (v - 1);
    } else {
        if (state.entries[i] === v && !state.notes[i]) return;
        remember();
        state.entries[i] = v;
        state.notes[i] = 0;
        // a placed value is no longer a candidate of its peers
        if (v) {
            for (let k = 0; k < state.notes.length; k++)
                if (k !== i && isPeer(k, i)) state.notes[k] &= ~(1 << (v - 1));
        }
    }
    state.fromSolver.delete(i);
    say("check-out", "");
    say("hint-out", "");
    positionChanged();
    if (v && !state.notesMode && !state.entries.some((e, k) => !e && !state.clues[k]))
        checkCompleted();
}

async function checkCompleted() {
    const version = state.version;
    const r = await engines.edit.call("web_check", `${puzzleLine()}\n${boardLine()}`, shapeArgs());
    if (version !== state.version || !r.ok) return;
    if (r.verdict === "correct") {
        say("check-out", "Solved! Every row, column and box is complete and right.", "good");
        $("check-out").dataset.verdict = "correct";
        message("Solved: well done!");
    } else {
        say("check-out", "The grid is full, but something is not right yet.", "bad");
        $("check-out").dataset.verdict = r.verdict;
    }
}

function setShape(br, bc, variant) {
    state.br = br;
    state.bc = bc;
    state.n = br * bc;
    state.variant = variant;
    $("size").value = `${br}x${bc}`;
    $("diagonal").checked = !!variant;
}

// The back ends offered fit the shape on the board.
function shapeChanged() {
    const fit = (s) => fits(s, state.n, state.variant) && (!state.given || s.candidates);
    fillSolverSelect($("solver"), fit, $("solver").value || state.defaultSolver);
    describeSolver();
    fillReplaySolvers();
}

// Loads a puzzle through the core's parser, which reads a line or a grid
// as `sudolab solve` does: the shape follows from the puzzle, the variant
// from the checkbox (or the link).
async function loadPuzzle(text, quiet, variant) {
    const v = variant !== undefined ? variant : $("diagonal").checked ? 1 : 0;
    const r = await engines.edit.call("web_parse", text, [0, 0, v]);
    if (!r.ok) {
        message(`Not a puzzle: ${r.why}`, true);
        return false;
    }
    if (state.clues.length) remember();
    setPuzzle(r);
    if (!quiet) {
        const marks = r.candidates && r.candidates.reduce((k, m) => k + popcount(m), 0);
        const given = r.candidates
            ? `pencil-mark puzzle with ${marks} candidates`
            : `puzzle with ${r.clues} clues`;
        message(
            r.conflict
                ? `Loaded, but the ${r.candidates ? "candidates" : "clues"} clash: ${r.conflict}`
                : `Loaded a ${shapeName()} ${given}.`,
            !!r.conflict,
        );
    }
    return true;
}

function setPuzzle(r) {
    setShape(r.box_rows, r.box_cols, r.variant);
    state.symbols = r.symbols;
    state.clues = Array.from(r.line, (ch) => (ch === "." ? 0 : valueOf(ch)));
    state.entries = new Array(state.n * state.n).fill(0);
    // a pencil-mark puzzle's candidates are shown as its notes
    state.given = r.candidates ? r.candidates.slice() : null;
    state.notes = r.candidates ? r.candidates.slice() : new Array(state.n * state.n).fill(0);
    state.fromSolver.clear();
    state.selected = 0;
    state.solution = null;
    $("show-solution").disabled = true;
    buildBoard($("board"), true);
    buildKeypad();
    shapeChanged();
    positionChanged();
    // what was said of the previous puzzle (generate() speaks after this)
    for (const id of ["check-out", "hint-out", "generate-out"]) say(id, "");
    $("solve-out").replaceChildren();
    document.body.dataset.loaded = Number(document.body.dataset.loaded || 0) + 1;
}

async function emptyGrid() {
    const [br, bc] = $("size").value.split("x").map(Number);
    const n = br * bc;
    const had = state.entries.some((e) => e) || state.clues.some((c) => c);
    if (await loadPuzzle(".".repeat(n * n), true))
        message(
            `Empty ${n}×${n} grid: type the clues, or paste a puzzle.` +
                (had ? " Undo (Ctrl+Z) brings the previous grid back." : ""),
        );
}

// The diagonal rule changes the shape, not the position: clues and entries
// stay, and Undo turns it back.
function toggleDiagonal() {
    remember();
    state.variant = $("diagonal").checked ? 1 : 0;
    buildBoard($("board"), true);
    shapeChanged();
    positionChanged();
    message(
        `${state.variant ? "Diagonal rule on" : "Diagonal rule off"}: your entries are kept; ` +
            "Undo (Ctrl+Z) turns it back.",
    );
}

function clearEntries() {
    remember();
    state.entries.fill(0);
    state.notes.fill(0);
    state.fromSolver.clear();
    for (const id of ["check-out", "hint-out"]) say(id, "");
    delete $("check-out").dataset.verdict;
    positionChanged();
    message("Your entries and notes are cleared; Undo (Ctrl+Z) brings them back.");
}

function setNotesMode(on) {
    state.notesMode = on;
    $("notes-mode").setAttribute("aria-pressed", on ? "true" : "false");
    $("notes-mode").textContent = on ? "Notes: on" : "Notes: off";
    drawKeypadCounts();
}

async function autoNotes() {
    const version = state.version;
    const r = await engines.edit.call("web_candidates", boardLine(), shapeArgs());
    if (!r.ok || version !== state.version) return;
    remember();
    state.notes = r.cells.map((s) =>
        Array.from(s).reduce((m, ch) => m | (1 << (valueOf(ch) - 1)), 0),
    );
    positionChanged();
    message(
        "Every blank cell now shows its candidates: the values no row, column or box rules out.",
    );
}

function onBoardKey(e) {
    if ((e.ctrlKey || e.metaKey) && !e.altKey) {
        const k = e.key.toLowerCase();
        if (k === "z" || k === "y") {
            e.preventDefault();
            if (k === "y" || e.shiftKey) undoRedo(state.redo, state.undo, "redo");
            else undoRedo(state.undo, state.redo, "undo");
        }
        return;
    }
    if (e.altKey) return;
    const n = state.n;
    let i = state.selected;
    const moves = { ArrowUp: -n, ArrowDown: n, ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in moves) {
        e.preventDefault();
        const r = Math.floor(i / n),
            c = i % n;
        if (e.key === "ArrowUp" && r > 0) i -= n;
        if (e.key === "ArrowDown" && r < n - 1) i += n;
        if (e.key === "ArrowLeft" && c > 0) i -= 1;
        if (e.key === "ArrowRight" && c < n - 1) i += 1;
        select(i, true);
        return;
    }
    if (e.key === "Home" || e.key === "End") {
        e.preventDefault();
        const r = Math.floor(i / n);
        select(e.key === "Home" ? r * n : r * n + n - 1, true);
        return;
    }
    if (["Backspace", "Delete", "0", ".", " "].includes(e.key)) {
        e.preventDefault();
        enter(0);
        return;
    }
    if (e.key.length === 1) {
        const v = valueOf(e.key);
        if (v > 0) {
            e.preventDefault();
            enter(v);
            // how long the page took to show the key (its queueing included)
            window.keyShownMs = performance.now() - e.timeStamp;
            window.lastKeyAt = e.timeStamp;
        } else if (e.key === "n" || e.key === "N") {
            e.preventDefault();
            setNotesMode(!state.notesMode);
        } else if (/[0-9a-z]/i.test(e.key)) {
            message(`'${e.key}' is not a value of a ${n}×${n} grid (${state.symbols}).`, true);
        }
    }
}

// --- saving and links ---------------------------------------------------------

const SAVE_KEY = "sudolab.progress";

function save() {
    try {
        localStorage.setItem(
            SAVE_KEY,
            JSON.stringify({
                puzzle: puzzleLine(),
                variant: state.variant,
                entries: state.entries.map(symbolOf).join(""),
                notes: state.notes,
            }),
        );
    } catch {
        // private mode or full storage: progress is simply not kept
    }
}

async function restoreSaved() {
    let saved;
    try {
        saved = JSON.parse(localStorage.getItem(SAVE_KEY));
    } catch {
        return false;
    }
    if (!saved || !saved.puzzle) return false;
    if (!(await loadPuzzle(saved.puzzle, true, saved.variant ? 1 : 0))) return false;
    state.undo = [];
    state.entries = Array.from(saved.entries || "", (ch) => (ch === "." ? 0 : valueOf(ch)));
    if (state.entries.length !== state.clues.length)
        state.entries = new Array(state.clues.length).fill(0);
    state.notes =
        Array.isArray(saved.notes) && saved.notes.length === state.clues.length
            ? saved.notes.map(Number)
            : new Array(state.clues.length).fill(0);
    positionChanged();
    setUndoButtons();
    return true;
}

function shareLink() {
    const link = new URL(location.href);
    link.hash = `puzzle=${puzzleLine()}${state.variant ? "&variant=diagonal" : ""}`;
    history.replaceState(null, "", link.hash);
    $("share-out").textContent = link.href;
    message("The address bar now holds a link to this puzzle (shown under the buttons).");
}

function linkedPuzzle() {
    const params = new URLSearchParams(location.hash.slice(1));
    const line = params.get("puzzle");
    return line ? { line, variant: params.get("variant") === "diagonal" ? 1 : 0 } : null;
}

function sameAsSaved(linked) {
    try {
        const saved = JSON.parse(localStorage.getItem(SAVE_KEY));
        return !!saved && saved.puzzle === linked.line && !!saved.variant === !!linked.variant;
    } catch {
        return false;
    }
}

async function loadFromHash() {
    const linked = linkedPuzzle();
    if (!linked) return false;
    const ok = await loadPuzzle(linked.line, true, linked.variant);
    if (ok) message(`Loaded the linked ${shapeName()} puzzle.`);
    return ok;
}

// --- long work: Stop and progress ----------------------------------------------

const work = { engine: null, started: 0, budgetMs: 0, label: "", timer: null, passes: "" };

// Runs a call on a worker with the Stop button and a progress line; resolves
// with its answer, or with {stopped: true} when Stop ended it.
async function runJob(engine, label, budgetMs, name, text, args) {
    if (work.engine) {
        message(`Still ${work.label}: Stop it first.`, true);
        return null;
    }
    work.engine = engine;
    work.started = performance.now();
    work.budgetMs = budgetMs;
    work.label = label;
    work.passes = "";
    $("stop").disabled = false;
    document.body.dataset.busy = "1";
    message(`${label[0].toUpperCase()}${label.slice(1)}…`);
    showProgress();
    work.timer = setInterval(showProgress, 100);
    const r = await engine.call(name, text, args, (p) => {
        work.passes = `, pass ${p.done} of ${p.of} done`;
        showProgress();
    });
    clearInterval(work.timer);
    work.engine = null;
    $("stop").disabled = true;
    $("progress-bar").hidden = true;
    $("progress-text").textContent = "";
    document.body.dataset.busy = "0";
    window.idleAt = performance.now();
    if (r && r.stopped) {
        const s = ((performance.now() - work.started) / 1000).toFixed(1);
        message(`Stopped ${label} after ${s} s.`);
    }
    return r;
}

function showProgress() {
    const ms = performance.now() - work.started;
    const bar = $("progress-bar");
    bar.hidden = false;
    if (work.budgetMs) {
        bar.max = work.budgetMs;
        bar.value = Math.min(ms, work.budgetMs);
    } else {
        bar.removeAttribute("value");
    }
    const of = work.budgetMs ? ` of a ${(work.budgetMs / 1000).toFixed(1)} s budget` : "";
    $("progress-text").textContent =
        `${work.label}: ${(ms / 1000).toFixed(1)} s${of}${work.passes}.`;
}

// Stop-to-idle is measured from the click's own time stamp: any wait for the
// page to take the click counts too.
function stopWork(e) {
    if (!work.engine) return;
    window.stopAt = e && e.timeStamp ? e.timeStamp : performance.now();
    work.engine.restart();
    // the call's promise resolves {stopped}: the page is idle again at once
}

// A budget field: a whole number of milliseconds, 1 to MAX_BUDGET_MS.
function readBudget(id, what) {
    const text = $(id).value.trim();
    const ms = Number(text);
    if (!/^\d+$/.test(text) || ms < 1 || ms > MAX_BUDGET_MS) {
        message(
            `${what}: give a whole number of milliseconds from 1 to ` +
                `${MAX_BUDGET_MS.toLocaleString("en")} (${text || "an empty field"} is not one: ` +
                "every computation here has a time limit, and Stop ends it sooner).",
            true,
        );
        $(id).focus();
        return null;
    }
    return ms;
}

// --- solving --------------------------------------------------------------

const counterNames = {
    article_steps: "article step",
};

function counterLabel(name) {
    return counterNames[name] || name.replace(/_/g, " ");
}

function formatNs(ns) {
    if (ns < 1e3) return `${ns} ns`;
    if (ns < 1e6) return `${(ns / 1e3).toFixed(1)} µs`;
    if (ns < 1e9) return `${(ns / 1e6).toFixed(2)} ms`;
    return `${(ns / 1e9).toFixed(2)} s`;
}

// A time as far as this page's clock can tell it.
function formatTime(ns) {
    const tick = engines.job.tickNs || 1;
    if (ns < 10 * tick) return `under ${formatNs(10 * tick)} (too quick for this page's clock)`;
    return formatNs(ns);
}

function showResult(r, what) {
    const t = $("solve-out");
    t.replaceChildren();
    const row = (k, v, label) => {
        const tr = t.insertRow();
        const th = document.createElement("th");
        th.scope = "row";
        th.textContent = label || k;
        tr.appendChild(th);
        const td = tr.insertCell();
        td.textContent = v;
        td.dataset.field = k;
    };
    if (!r.ok) {
        row("error", r.why);
        return;
    }
    row("back end", r.solver);
    row("status", r.status);
    row(what === "count" ? "solutions counted" : "solutions found", r.solutions);
    const s = solverByName(r.solver);
    for (const name of state.counters) {
        // as `sudolab solve` prints it: n/a for what the back end cannot
        // know, and Moler's article step only for the back ends that have it
        if (name === "article_steps" && !(s && s.counters.includes(name))) continue;
        const value =
            r.counters && name in r.counters ? r.counters[name].toLocaleString("en") : "n/a";
        row(name, value, counterLabel(name));
    }
    row("time", formatTime(r.time_ns));
    if (r.error) row("error", r.error);
}

const verdicts = {
    unique: "exactly one solution",
    multiple: "two or more solutions",
    unsolvable: "no solution",
    solved: "first solution found",
    invalid: "the clues break a rule",
    limit: "the budget ran out first",
    error: "error",
};

async function solve(limit) {
    const s = solverByName($("solver").value);
    const what = limit === 1 ? "solve" : "count";
    if (!s) {
        message(`No back end here handles a ${shapeName()} grid.`, true);
        return;
    }
    if (limit !== 1 && !s.count) {
        message(`${s.name} finds one solution only; pick another back end to count.`, true);
        return;
    }
    const budget = readBudget("budget-ms", "Budget");
    if (budget === null) return;
    const version = state.version;
    const r = await runJob(
        engines.job,
        `${what === "solve" ? "solving" : "counting"} with ${s.name}`,
        budget,
        "web_solve",
        puzzleLine(),
        [s.index, ...shapeArgs(), limit, budget, 0],
    );
    if (!r || r.stopped) return;
    showResult(r, what);
    if (!r.ok) {
        message(r.why, true);
        return;
    }
    const found = `${r.solutions.toLocaleString("en")} solution${r.solutions === 1 ? "" : "s"}`;
    const verdict = verdicts[r.status] || r.status;
    let text = `${s.name}: ${verdict}, ${found}, ${formatTime(r.time_ns)}.`;
    if (what === "count" && r.status === "limit")
        text = `${s.name}: at least ${found} before the budget ran out.`;
    if (r.error) text += ` ${r.error}`;
    message(text, r.status === "error" || r.status === "invalid");
    if (version !== state.version) return;
    state.solution = r.solution || null;
    $("show-solution").disabled = !state.solution;
    if (what === "solve" && state.solution) fillSolution();
}

function fillSolution() {
    if (!state.solution) return;
    remember();
    for (let i = 0; i < state.n * state.n; i++) {
        if (!state.clues[i]) {
            state.entries[i] = valueOf(state.solution[i]);
            state.notes[i] = 0;
            state.fromSolver.add(i);
        }
    }
    positionChanged();
}

// --- checking, hints, grading ---------------------------------------------

async function check() {
    const r = await engines.edit.call("web_check", `${puzzleLine()}\n${boardLine()}`, shapeArgs());
    const out = $("check-out");
    if (!r.ok) {
        say("check-out", r.why, "bad");
        return;
    }
    state.wrong = new Set(r.wrong);
    drawBoard();
    const texts = {
        correct: "Correct: a valid solution of this puzzle.",
        wrong: `Not right: ${r.why}.`,
        incomplete: `So far so good: ${r.why}.`,
        unsolvable: `This puzzle cannot be solved: ${r.why}.`,
    };
    say(
        "check-out",
        texts[r.verdict] || r.why,
        r.verdict === "correct" ? "good" : r.verdict === "incomplete" ? "" : "bad",
    );
    out.dataset.verdict = r.verdict;
}

// Why a technique's step holds, in plain words (the marked cells are its
// pattern).
function why(r) {
    const unit = r.unit || "that unit";
    const k = r.values.length;
    const texts = {
        naked_single: "Every other value is already in its row, column or box.",
        hidden_single: `It is the only place left for it in ${unit}.`,
        pointing:
            `Within ${unit} these values fit only the marked cells, which share a line: ` +
            "so the rest of that line cannot hold them.",
        claiming:
            `Within ${unit} these values fit only the marked cells, which share a box: ` +
            "so the rest of that box cannot hold them.",
        naked_pair: `The ${k} marked cells of ${unit} hold only these ${k} values between them, so no other cell of ${unit} can.`,
        naked_triple: `The ${k} marked cells of ${unit} hold only these ${k} values between them, so no other cell of ${unit} can.`,
        hidden_pair: `In ${unit} these ${k} values fit only the marked cells, so those cells hold nothing else.`,
        hidden_triple: `In ${unit} these ${k} values fit only the marked cells, so those cells hold nothing else.`,
        x_wing:
            "In two lines the value fits only the marked cells, which sit on the same two " +
            "crossing lines: whichever way it goes, the rest of those crossing lines cannot hold it.",
        swordfish:
            "In three lines the value fits only the marked cells, which sit on the same three " +
            "crossing lines: the rest of those crossing lines cannot hold it.",
    };
    return texts[r.technique] || "";
}

// Sudoku Explainer's step (9x9 classic boards) in plain words, with the cells
// it rests on marked and the cell it fills lit; the data attributes carry
// what `sudolab hint` prints for the same board, for tests and tools.
function seHint(r) {
    const s = r.se;
    const out = $("hint-out");
    const head = `${s.technique} (Sudoku Explainer rating ${s.rating.toFixed(1)})`;
    const uses = s.cells.length ? ` on ${s.cells.map(shortCell).join(", ")}` : "";
    const digits = (e) => [...e.digits].map(Number).map(symbolOf).join(", ");
    const elims = s.eliminate.map((e) => `${digits(e)} from ${shortCell(e.cell)}`).join("; ");
    const parts = [];
    if (s.place.cell >= 0)
        parts.push(`${symbolOf(s.place.digit)} goes in ${cellName(s.place.cell)}`);
    if (elims) parts.push(`remove ${elims}`);
    const why = s.cells.length
        ? "The marked cells are the ones the step rests on."
        : "It is the next step Sudoku Explainer takes on this board.";
    say("hint-out", `${head}${uses}: ${parts.join(", and ")}. ${why}`);
    for (const c of s.cells) state.pattern.add(c);
    if (s.place.cell >= 0) {
        state.hinted.add(s.place.cell);
        out.dataset.cell = s.place.cell;
    } else if (!s.cells.length) {
        for (const e of s.eliminate) state.pattern.add(e.cell);
    }
    out.dataset.line = r.line;
    out.dataset.technique = s.technique;
    drawBoard();
}

async function hint() {
    // The SE engine may take seconds on a hard board (nested chains): it runs
    // as a job, with Stop and the progress line, not on the typing worker.
    const board = `${puzzleLine()}\n${boardLine()}`;
    const r = await runJob(engines.job, "finding a hint", 0, "web_hint", board, shapeArgs());
    if (!r || r.stopped) return;
    message("");
    state.hinted.clear();
    state.pattern.clear();
    const out = $("hint-out");
    delete out.dataset.technique;
    if (!r.ok || !r.found) {
        say("hint-out", `No hint: ${r.why}.`);
        drawBoard();
        return;
    }
    if (r.technique === "se") {
        seHint(r);
        return;
    }
    let text;
    if (r.technique === "mistake") {
        text =
            `Look again at ${cellName(r.cell)}: the ${symbolOf(r.value)} there does not ` +
            "fit the solution. Every step built on it would lead you astray.";
        state.wrong.add(r.cell);
        state.hinted.add(r.cell);
        select(r.cell, false);
    } else if (r.cell >= 0) {
        const label = r.label.charAt(0).toUpperCase() + r.label.slice(1);
        text = `${label}: ${symbolOf(r.value)} goes in ${cellName(r.cell)}. ${why(r)}`;
        state.hinted.add(r.cell);
    } else {
        const label = r.label.charAt(0).toUpperCase() + r.label.slice(1);
        const vals = r.values.map(symbolOf).join(", ");
        const elims = r.elim.map(([c, v]) => `${symbolOf(v)} from ${shortCell(c)}`).join(", ");
        text = `${label} on ${vals}${r.unit ? ` in ${r.unit}` : ""}: remove ${elims}. ${why(r)}`;
        for (const c of r.pattern) state.pattern.add(c);
    }
    say("hint-out", text, r.technique === "mistake" ? "bad" : "");
    out.dataset.technique = r.technique;
    if (r.cell >= 0) out.dataset.cell = r.cell;
    drawBoard();
}

async function grade() {
    const r = await runJob(engines.job, "grading", 0, "web_rate", puzzleLine(), [
        ...shapeArgs(),
        10,
    ]);
    if (!r || r.stopped) return;
    if (!r.ok) {
        say("hint-out", `No grade: ${r.why}.`);
        return;
    }
    if (r.pencil) {
        // the clue-based grades would grade the empty grid
        say("hint-out", `Grade of the pencil marks by Sudoku Explainer: ${r.se}.`);
        $("hint-out").dataset.technique = r.se;
        message("Graded.");
        return;
    }
    const lg = r.logic;
    const used = Object.entries(lg.used)
        .filter(([, k]) => k > 0)
        .map(([t, k]) => `${t.replace(/_/g, " ")} ×${k}`)
        .join(", ");
    const logic =
        lg.status === "solved"
            ? `logic alone solves it, hardest technique ${lg.label} (${used || "nothing needed"})`
            : lg.status === "stuck"
              ? `logic alone places ${lg.placed} and stops with ${lg.empty} blanks: ` +
                `needs guessing (${used || "no step"})`
              : "the clues contradict each other";
    say(
        "hint-out",
        `Grade: ${r.blanks} blanks (level ${r.blanks_level} of 5 by blank count), ` +
            `freedom ${r.freedom} (level ${r.freedom_level} of 5 by how many values the ` +
            `blanks allow), search effort ${r.guesses.toFixed(2)} (from ${r.guesses_raw} ` +
            `guesses of ${r.guess_solver} over ${r.permutations} shuffles); ${logic}.`,
    );
    $("hint-out").dataset.technique = lg.hardest;
    message("Graded.");
}

// --- generating -----------------------------------------------------------

// Plain names for the generator's methods (their research names in the title).
const methodLabels = {
    dig: "Dig holes in a full grid",
    seed003: "Scatter random clues, then fix",
};
const levelLabels = { easy: "Easy", medium: "Medium", hard: "Hard" };

function setupGenerator(list) {
    const methods = list.generate ? list.generate.methods : [];
    const levels = list.generate ? list.generate.levels : [];
    const fill = (sel, items, labels) => {
        sel.replaceChildren();
        for (const it of items) {
            const o = document.createElement("option");
            o.value = it.name;
            o.textContent = labels[it.name] || it.name;
            o.title = `sudolab generate --method ${it.name}`;
            sel.appendChild(o);
        }
    };
    fill($("gen-method"), methods, methodLabels);
    fill($("gen-level"), levels, levelLabels);
    if (methods.length === 0) {
        $("generate").disabled = true;
        say("generate-out", "The generator is not in this build.");
    }
}

const MAX_SEED = (1n << 64n) - 1n;

async function generate() {
    const seed = $("gen-seed").value.trim();
    if (!/^\d+$/.test(seed) || BigInt(seed) > MAX_SEED) {
        message(
            `Seed: give a whole number from 0 to ${MAX_SEED} ` +
                `(${seed || "an empty field"} is not one).`,
            true,
        );
        return;
    }
    const method = $("gen-method").value,
        level = $("gen-level").value;
    const flags = ["symmetric", "minimal"].filter((f) => $(`gen-${f}`).checked);
    const [br, bc] = $("size").value.split("x").map(Number);
    const variant = $("diagonal").checked ? 1 : 0;
    const r = await runJob(
        engines.job,
        `generating (${methodLabels[method] || method}, ${level}, seed ${seed})`,
        0,
        "web_generate",
        `${method} ${level} ${seed} ${flags.join(" ")}`,
        [br, bc, variant],
    );
    if (!r || r.stopped) return;
    if (!r.ok) {
        say("generate-out", r.why, "bad");
        message(r.why, true);
        return;
    }
    await loadPuzzle(r.puzzle, true, variant);
    const options = [
        `--method ${r.method}`,
        `--level ${r.level}`,
        `--seed ${r.seed}`,
        `--size ${br}x${bc}`,
        ...(state.variant ? ["--variant diagonal"] : []),
        ...flags.map((f) => `--${f}`),
    ];
    say(
        "generate-out",
        `${levelLabels[r.level] || r.level} puzzle, seed ${r.seed}: ${r.clues} clues, ` +
            `one solution, made in ${formatTime(r.time_ns)}. ` +
            `Same as: sudolab generate ${options.join(" ")}`,
    );
    $("generate-out").dataset.puzzle = r.puzzle;
    $("generate-out").dataset.seed = r.seed;
    message(`Generated a ${shapeName()} puzzle with ${r.clues} clues (seed ${r.seed}).`);
}

// --- replay ---------------------------------------------------------------

const replay = {
    slots: [null, null], // per slot: { events, solver, k, result }
    timer: null,
};

function fillReplaySolvers() {
    const tracers = state.solvers.filter((s) => s.trace && fits(s, state.n, state.variant));
    for (const slot of [0, 1]) {
        const sel = $(`replay-solver-${slot}`);
        const keep = sel.value;
        sel.replaceChildren();
        if (slot === 1) {
            const none = document.createElement("option");
            none.value = "";
            none.textContent = "(none)";
            sel.appendChild(none);
        }
        for (const s of tracers) {
            const o = document.createElement("option");
            o.value = s.name;
            o.textContent = s.name;
            sel.appendChild(o);
        }
        if ([...sel.options].some((o) => o.value === keep)) sel.value = keep;
    }
    stopPlaying();
    for (const slot of [0, 1]) clearSlot(slot);
    setReplayButtons();
}

// A slot whose trace no longer matches the puzzle or the back end shows the
// clues alone until it is recorded again.
function clearSlot(slot) {
    replay.slots[slot] = null;
    drawPuzzleOnly(slot);
    const slider = $(`replay-slider-${slot}`);
    slider.max = 0;
    slider.value = 0;
    slider.disabled = true;
    const info = $(`replay-info-${slot}`);
    info.textContent = $(`replay-solver-${slot}`).value ? "Not recorded yet." : "";
    delete info.dataset.k;
    delete info.dataset.kind;
}

function setReplayButtons() {
    const any = replay.slots.some((s) => s);
    for (const id of [
        "play-pause",
        "step-back",
        "step-fwd",
        "goto",
        "goto-solution",
        "next-guess",
        "next-dead",
    ])
        $(id).disabled = !any;
}

async function record() {
    stopPlaying();
    const budget = readBudget("budget-ms", "Budget");
    if (budget === null) return;
    const line = puzzleLine();
    const notes = [];
    for (const slot of [0, 1]) clearSlot(slot);
    for (const slot of [0, 1]) {
        const name = $(`replay-solver-${slot}`).value;
        if (!name) continue;
        const s = solverByName(name);
        const r = await runJob(
            engines.replay,
            `recording ${name}'s search`,
            budget,
            "web_trace",
            line,
            [slot, s.index, ...shapeArgs(), budget, 0],
        );
        if (!r || r.stopped) {
            for (const k of [0, 1]) clearSlot(k);
            setReplayButtons();
            return;
        }
        if (!r.ok) {
            $(`replay-info-${slot}`).textContent = r.why;
            notes.push(`${name}: ${r.why}`);
            continue;
        }
        replay.slots[slot] = { events: r.events, solver: s, k: 0, result: r };
        const slider = $(`replay-slider-${slot}`);
        slider.max = r.events;
        slider.value = 0;
        slider.disabled = false;
        buildBoard($(`replay-board-${slot}`), false);
        await showReplay(slot, 0);
        notes.push(
            `${name}: ${r.events.toLocaleString("en")} events, ${verdicts[r.status] || r.status}` +
                (r.truncated ? " (trace cut short)" : "") +
                (r.inconsistent ? " (events do not replay cleanly!)" : ""),
        );
    }
    setReplayButtons();
    message(`Recorded. ${notes.join("; ")}.`);
}

// Before a trace is recorded, a replay board shows the clues alone.
function drawPuzzleOnly(slot) {
    const board = $(`replay-board-${slot}`);
    buildBoard(board, false);
    const cells = boardCells(`replay-board-${slot}`);
    for (let i = 0; i < cells.length; i++) {
        cells[i].textContent = state.clues[i] ? symbolOf(state.clues[i]) : "";
        cells[i].classList.toggle("clue", !!state.clues[i]);
        cells[i].setAttribute(
            "aria-label",
            `${cellName(i)}: ${state.clues[i] ? `${symbolOf(state.clues[i])}, clue` : "blank"}`,
        );
    }
}

const kindText = {
    singleton: "singleton",
    guess: "tentative",
    undo: "undo",
    dead: "dead end",
    solution: "solution",
};
const classNames = ["", "clue", "tentative", "singleton"];
const classWords = ["blank", "clue", "tentative value", "implied singleton"];

// wanted, when given, says whether the answer is still wanted once it arrives: a step
// that Pause overtook must not move the board after it.
async function showReplay(slot, k, wanted) {
    const sl = replay.slots[slot];
    if (!sl) return;
    const r = await engines.replay.call("web_trace_state", null, [slot, k]);
    if (!r.ok || replay.slots[slot] !== sl || (wanted && !wanted())) return;
    sl.k = r.k;
    $(`replay-slider-${slot}`).value = r.k;
    const cells = boardCells(`replay-board-${slot}`);
    for (let i = 0; i < cells.length; i++) {
        const cell = cells[i];
        const cls = Number(r.classes[i]);
        cell.textContent = r.values[i] === "." ? "" : r.values[i];
        cell.classList.remove("clue", "tentative", "singleton", "current", "dead");
        if (classNames[cls]) cell.classList.add(classNames[cls]);
        let label = `${cellName(i)}: `;
        label += r.values[i] === "." ? "blank" : `${r.values[i]}, ${classWords[cls]}`;
        if (r.event && r.event.cell === i)
            label += r.event.kind === "dead" ? ", dead end here" : ", last event";
        cell.setAttribute("aria-label", label);
    }
    let text = `event ${r.k.toLocaleString("en")} / ${r.events.toLocaleString("en")}`;
    if (r.event) {
        const e = r.event;
        if (e.cell >= 0 && e.cell < cells.length)
            cells[e.cell].classList.add(e.kind === "dead" ? "dead" : "current");
        text += `: ${kindText[e.kind] || e.kind}`;
        if (e.cell >= 0)
            text += ` ${e.value ? `${symbolOf(e.value)} ` : ""}at ${shortCell(e.cell)}`;
        text +=
            "\n" +
            Object.entries(r.counters)
                .map(([c, v]) => `${counterLabel(c)} ${v.toLocaleString("en")}`)
                .join(" · ");
    } else {
        text += ": the puzzle";
    }
    const info = $(`replay-info-${slot}`);
    info.textContent = "";
    for (const [j, part] of text.split("\n").entries()) {
        if (j) info.appendChild(document.createElement("br"));
        info.appendChild(document.createTextNode(part));
    }
    info.dataset.k = r.k;
    if (r.event) info.dataset.kind = r.event.kind;
    else delete info.dataset.kind;
    if ($("replay-notes").checked) await showReplayNotes(slot, r);
}

// The candidates of the replayed position's blank cells, as pencil marks.
async function showReplayNotes(slot, r) {
    const c = await engines.edit.call("web_candidates", r.values, shapeArgs());
    const sl = replay.slots[slot];
    if (!c.ok || !sl || sl.k !== r.k) return;
    const cells = boardCells(`replay-board-${slot}`);
    for (let i = 0; i < cells.length; i++) {
        if (r.values[i] !== "." || !c.cells[i]) continue;
        const mask = Array.from(c.cells[i]).reduce((m, ch) => m | (1 << (valueOf(ch) - 1)), 0);
        drawNotes(cells[i], mask);
        cells[i].setAttribute(
            "aria-label",
            `${cellName(i)}: blank, candidates ${c.cells[i].split("").join(" ")}`,
        );
    }
    $(`replay-board-${slot}`).dataset.notesAt = r.k;
}

async function stepAll(delta, wanted) {
    let moved = false;
    for (const slot of [0, 1]) {
        const sl = replay.slots[slot];
        if (!sl) continue;
        const k = Math.min(sl.events, Math.max(0, sl.k + delta));
        if (k !== sl.k) {
            await showReplay(slot, k, wanted);
            moved = true;
        }
    }
    return moved;
}

function stopPlaying() {
    replay.playing = null;
    if (replay.timer) {
        clearTimeout(replay.timer);
        replay.timer = null;
    }
    $("play-pause").textContent = "Play";
    $("play-pause").setAttribute("aria-pressed", "false");
    for (const slot of [0, 1]) $(`replay-info-${slot}`).setAttribute("aria-live", "polite");
}

// Speeds are events per second; below 25 a tick is one event.
async function playPause() {
    if (replay.timer) {
        stopPlaying();
        return;
    }
    // From the end, start over.
    if (replay.slots.every((s) => !s || s.k >= s.events)) {
        for (const slot of [0, 1]) if (replay.slots[slot]) await showReplay(slot, 0);
    }
    $("play-pause").textContent = "Pause";
    $("play-pause").setAttribute("aria-pressed", "true");
    // a position announced many times a second would drown everything else
    for (const slot of [0, 1]) $(`replay-info-${slot}`).setAttribute("aria-live", "off");
    const playing = (replay.playing = {});
    const stillPlaying = () => replay.playing === playing;
    const tick = async () => {
        const perSecond = Number($("speed").value);
        const every = Math.max(40, 1000 / perSecond);
        const events = Math.max(1, Math.round((perSecond * every) / 1000));
        replay.timer = setTimeout(async () => {
            if (!stillPlaying()) return;
            const moved = await stepAll(events, stillPlaying);
            if (!stillPlaying()) return;
            if (moved) tick();
            else stopPlaying();
        }, every);
    };
    replay.timer = true;
    tick();
}

async function gotoCounter() {
    stopPlaying();
    const counter = $("goto-counter").value;
    const value = Math.max(0, Number($("goto-value").value) || 0);
    const index = state.counters.indexOf(counter);
    const notes = [];
    for (const slot of [0, 1]) {
        const sl = replay.slots[slot];
        if (!sl) continue;
        if (!sl.solver.counters.includes(counter)) {
            notes.push(`${sl.solver.name} does not count ${counterLabel(counter)}s`);
            continue;
        }
        const r = await engines.replay.call("web_trace_find", null, [slot, index, value]);
        if (r.k < 0) {
            await showReplay(slot, sl.events);
            notes.push(`${sl.solver.name} never reaches ${counterLabel(counter)} ${value}`);
        } else {
            await showReplay(slot, r.k);
        }
    }
    if (notes.length) message(notes.join("; ") + ".");
}

// Jumps each replay to just after its next event of a kind (guess, dead end).
async function gotoNext(kind, word) {
    stopPlaying();
    const kinds = { guess: 1, dead: 3 };
    const notes = [];
    for (const slot of [0, 1]) {
        const sl = replay.slots[slot];
        if (!sl) continue;
        const r = await engines.replay.call("web_trace_next", null, [slot, sl.k, kinds[kind]]);
        if (r.k < 0) notes.push(`${sl.solver.name}: no ${word} after event ${sl.k}`);
        else await showReplay(slot, r.k);
    }
    message(notes.length ? notes.join("; ") + "." : `At the next ${word}.`);
}

// Back ends that unwind after a solution erase it event by event: the
// solution is on the board just after the SOLUTION event.
async function gotoSolution() {
    stopPlaying();
    for (const slot of [0, 1]) {
        const sl = replay.slots[slot];
        if (sl) await showReplay(slot, sl.result.solution_at || sl.events);
    }
}

function onReplayKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t instanceof HTMLInputElement && t.type !== "range") return;
    if (t instanceof HTMLSelectElement) return;
    const keys = {
        p: () => playPause(),
        ",": () => stepAll(-1),
        ".": () => stepAll(1),
        g: () => gotoNext("guess", "guess"),
        d: () => gotoNext("dead", "dead end"),
        s: () => gotoSolution(),
    };
    const f = keys[e.key.toLowerCase()];
    if (f && !$("play-pause").disabled) {
        e.preventDefault();
        if (e.key !== "p") stopPlaying();
        f();
    }
}

// --- batch timing ---------------------------------------------------------

// The batch's back ends fit the shape of its first puzzle.
async function batchShape() {
    const text = $("batch-input").value;
    const first = text.split("\n").find((l) => l.trim() && !l.startsWith("#"));
    if (!first) return;
    const r = await engines.edit.call("web_parse", first, [0, 0, $("diagonal").checked ? 1 : 0]);
    if (!r.ok || $("batch-input").value !== text) return;
    const sel = $("batch-solver");
    fillSolverSelect(sel, (s) => fits(s, r.n, r.variant), sel.value || state.defaultSolver);
    sel.dataset.n = r.n;
}

async function runBatch() {
    const s = solverByName($("batch-solver").value);
    const text = $("batch-input").value;
    const passesText = $("batch-passes").value.trim();
    const passes = Number(passesText);
    if (!/^\d+$/.test(passesText) || passes < 1 || passes > 100) {
        message(`Passes: give a whole number from 1 to 100 (not ${passesText || "empty"}).`, true);
        return;
    }
    const budget = readBudget("batch-budget", "Batch budget");
    if (budget === null) return;
    const limit = Number($("batch-limit").value);
    delete $("batch-out").dataset.result;
    const r = await runJob(engines.job, `timing a batch with ${s.name}`, budget, "batch", text, [
        s.index,
        0,
        0,
        $("diagonal").checked ? 1 : 0,
        limit,
        passes,
        budget,
    ]);
    if (!r || r.stopped) return;
    if (!r.ok) {
        say("batch-out", r.why, "bad");
        message(r.why, true);
        return;
    }
    say("batch-out", batchText(r));
    $("batch-out").dataset.result = JSON.stringify(r);
    message("Batch timed.");
}

function batchText(r) {
    const tick = engines.job.tickNs;
    const statuses = Object.entries(r.status)
        .map(([k, v]) => `${v.toLocaleString("en")} ${verdicts[k] || k}`)
        .join(", ");
    let text =
        `${r.solver}: ${r.puzzles.toLocaleString("en")} puzzles (${statuses}` +
        (r.bad ? `, ${r.bad} unreadable lines skipped` : "") +
        (r.counters.guesses !== undefined
            ? `; ${(r.counters.guesses / r.puzzles).toFixed(2)} guesses per puzzle`
            : "") +
        ")";
    if (r.dropped)
        text +=
            `. Only the first ${r.max_puzzles.toLocaleString("en")} puzzles are timed: ` +
            `${r.dropped.toLocaleString("en")} more ` +
            (r.dropped === 1 ? "line was left out" : "lines were left out");
    if (!r.passes_done) {
        return (
            text +
            `. The budget ran out during the first pass, after ${r.done} of ` +
            `${r.puzzles} puzzles: nothing to time. Give a larger budget or fewer puzzles.`
        );
    }
    if (r.passes_done < r.passes)
        text += `. The budget allowed ${r.passes_done} of the ${r.passes} passes asked for`;
    const per = r.best_pass_ns / r.puzzles;
    text +=
        `; fastest of ${r.passes_done} pass${r.passes_done === 1 ? "" : "es"} ` +
        `${formatNs(r.best_pass_ns)}`;
    if (r.best_pass_ns < 100 * tick) {
        text +=
            `. That is under 100 ticks of this page's clock (one tick = ${formatNs(tick)}` +
            (engines.job.isolated ? "" : ": the page is not cross-origin isolated") +
            "), too coarse to time one pass";
        const rep = r.repeated;
        if (rep) {
            const perPuzzle = rep.mean_pass_ns / r.puzzles;
            text +=
                `, so ${rep.passes.toLocaleString("en")} passes were timed together ` +
                `(${rep.ticks.toLocaleString("en")} ticks): ${formatNs(rep.mean_pass_ns)} per pass, ` +
                `${formatNs(Math.round(perPuzzle))} per puzzle, ` +
                `${Math.round(1e9 / perPuzzle).toLocaleString("en")} puzzles/s (means, not fastest)`;
        } else {
            text += ": time more puzzles or give a larger budget";
        }
        if (!engines.job.isolated) text += "; scripts/serve-web.sh gives a finer clock";
    } else {
        text +=
            `, ${formatNs(Math.round(per))} per puzzle, ` +
            `${Math.round(1e9 / per).toLocaleString("en")} puzzles/s`;
    }
    return text + ".";
}

// --- start ----------------------------------------------------------------

function fillSolverSelect(sel, filter, preferred) {
    sel.replaceChildren();
    for (const s of state.solvers.filter(filter)) {
        const o = document.createElement("option");
        o.value = s.name;
        o.textContent = `${s.name} (${s.family})`;
        o.title = s.summary;
        sel.appendChild(o);
    }
    if (preferred && [...sel.options].some((o) => o.value === preferred)) sel.value = preferred;
}

function describeSolver() {
    const s = solverByName($("solver").value);
    if (s)
        $("solver-summary").textContent =
            `${s.name}: ${s.summary}. Sizes ${s.min_n}×${s.min_n} to ${s.max_n}×${s.max_n}` +
            (s.diagonal ? ", diagonal too" : "") +
            (s.count ? "." : ", first solution only.");
}

function clockNote() {
    const e = engines.job;
    return e.tickNs > 20000
        ? ` This page's clock ticks every ${formatNs(e.tickNs)} (not cross-origin isolated): ` +
              "times shorter than that are not measured; scripts/serve-web.sh gives a finer clock."
        : ` Clock tick ${formatNs(e.tickNs)}.`;
}

// The puzzle panel's controls.
function wire() {
    $("size").addEventListener("change", emptyGrid);
    $("diagonal").addEventListener("change", toggleDiagonal);
    $("new-empty").addEventListener("click", emptyGrid);
    $("clear-entries").addEventListener("click", clearEntries);
    $("undo").addEventListener("click", () => undoRedo(state.undo, state.redo, "undo"));
    $("redo").addEventListener("click", () => undoRedo(state.redo, state.undo, "redo"));
    $("notes-mode").addEventListener("click", () => setNotesMode(!state.notesMode));
    $("auto-notes").addEventListener("click", autoNotes);
    $("share").addEventListener("click", shareLink);
    $("load").addEventListener("click", () => loadPuzzle($("puzzle-line").value));
    $("puzzle-line").addEventListener("keydown", (e) => {
        if (e.key === "Enter" && !e.shiftKey) {
            e.preventDefault();
            loadPuzzle($("puzzle-line").value);
        }
    });
    $("board").addEventListener("keydown", onBoardKey);
    document.addEventListener("paste", (e) => {
        const t = e.target;
        if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement) return;
        const text = (e.clipboardData || window.clipboardData).getData("text");
        if (text) {
            e.preventDefault();
            loadPuzzle(text);
        }
    });
    window.addEventListener("hashchange", loadFromHash);
}

// The solving, generating, replay and batch panels' controls.
function wireTools() {
    $("solver").addEventListener("change", describeSolver);
    $("solve").addEventListener("click", () => solve(1));
    $("count").addEventListener("click", () => solve(0));
    $("stop").addEventListener("click", stopWork);
    $("show-solution").addEventListener("click", fillSolution);
    $("check").addEventListener("click", check);
    $("hint").addEventListener("click", hint);
    $("rate").addEventListener("click", grade);
    $("generate").addEventListener("click", generate);
    $("record").addEventListener("click", record);
    $("play-pause").addEventListener("click", playPause);
    $("step-back").addEventListener("click", () => {
        stopPlaying();
        stepAll(-1);
    });
    $("step-fwd").addEventListener("click", () => {
        stopPlaying();
        stepAll(1);
    });
    $("next-guess").addEventListener("click", () => gotoNext("guess", "guess"));
    $("next-dead").addEventListener("click", () => gotoNext("dead", "dead end"));
    $("goto").addEventListener("click", gotoCounter);
    $("goto-solution").addEventListener("click", gotoSolution);
    $("replay-card").addEventListener("keydown", onReplayKey);
    for (const slot of [0, 1]) {
        $(`replay-slider-${slot}`).addEventListener("input", (e) => {
            stopPlaying();
            showReplay(slot, Number(e.target.value));
        });
        $(`replay-solver-${slot}`).addEventListener("change", () => {
            stopPlaying();
            clearSlot(slot);
            setReplayButtons();
        });
    }
    $("batch-run").addEventListener("click", runBatch);
    $("batch-file").addEventListener("change", async (e) => {
        const file = e.target.files[0];
        if (file) $("batch-input").value = await file.text();
        batchShape();
    });
    $("batch-input").addEventListener("input", batchShape);
    $("replay-notes").addEventListener("change", async () => {
        for (const slot of [0, 1]) {
            const sl = replay.slots[slot];
            if (sl) await showReplay(slot, sl.k);
        }
    });
}

async function start() {
    let module;
    try {
        const response = await fetch("sudolab.wasm");
        if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
        module = await WebAssembly.compile(await response.arrayBuffer());
    } catch (err) {
        message(
            `Could not load sudolab.wasm: ${err.message}. ` +
                "Serve this folder with scripts/serve-web.sh.",
            true,
        );
        return;
    }
    for (const name of Object.keys(engines)) engines[name] = new Engine(name, module);
    const list = await engines.edit.call("web_list", null);
    await engines.job.ready;
    window.sudolabList = list;
    state.solvers = list.solvers;
    state.counters = list.counters;
    state.defaultSolver = list.default;
    fillSolverSelect($("batch-solver"), () => true, list.default);
    const gc = $("goto-counter");
    for (const c of list.counters) {
        const o = document.createElement("option");
        o.value = c;
        o.textContent = counterLabel(c);
        gc.appendChild(o);
    }
    gc.value = "article_steps";
    setupGenerator(list);
    $("about").textContent =
        `sudolab ${list.version} (${list.compiler}, ${list.buildtype}), ` +
        `${list.solvers.length} back ends in this build: ` +
        `${list.solvers.map((s) => s.name).join(", ")}.` +
        clockNote();
    wire();
    wireTools();
    setUndoButtons();

    let how = "Ready: Gordon Royle's puzzle from Moler's article is loaded.";
    // A link to the saved puzzle (the player's own, after "Link to this
    // puzzle" and a reload) brings the progress back rather than a fresh grid.
    const linked = linkedPuzzle();
    if (linked && !sameAsSaved(linked) && (await loadFromHash())) how = $("message").textContent;
    else if (await restoreSaved()) how = "Ready: your saved puzzle and progress are back.";
    // Gordon Royle's puzzle, the one in Moler's article, to start with.
    else
        await loadPuzzle(
            ".2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2.",
            true,
        );
    state.undo = [];
    setUndoButtons();
    if (solverByName("moler") && fits(solverByName("moler"), state.n, state.variant))
        $("replay-solver-0").value = "moler";
    const second = state.solvers.find(
        (s) =>
            s.trace &&
            fits(s, state.n, state.variant) &&
            !["moler", "naive", "naive_stack"].includes(s.name),
    );
    if (second) $("replay-solver-1").value = second.name;
    for (const slot of [0, 1]) clearSlot(slot);
    document.body.dataset.busy = "0";
    document.body.dataset.ready = "1";
    // the clock's note is in the footer: a phone's first screen keeps the pad
    message(how);
}

start();
