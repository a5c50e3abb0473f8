// sudolab's page. This file only draws and forwards: every answer (parsing,
// clashes, solving, counting, checking, hints, generation, traces and their
// replay) comes from sudolab's C core in sudolab.wasm (web/wasm_api.c).
"use strict";

// --- the core -------------------------------------------------------------

const core = {
    exports: null,
    encoder: new TextEncoder(),
    decoder: new TextDecoder(),

    async load(url) {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
        const module = await WebAssembly.compile(await response.arrayBuffer());
        // The core uses the clock and nothing else of WASI: the clock is the
        // page's monotonic one; every other call says "not supported" (52).
        const wasi = {};
        for (const imp of WebAssembly.Module.imports(module)) {
            if (imp.module === "wasi_snapshot_preview1") wasi[imp.name] = () => 52;
        }
        wasi.clock_time_get = (id, precision, out) => {
            const ns = BigInt(Math.round(performance.now() * 1e6));
            new DataView(this.exports.memory.buffer).setBigUint64(out, ns, true);
            return 0;
        };
        const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi });
        this.exports = instance.exports;
    },

    has(name) {
        return typeof this.exports[name] === "function";
    },

    // Calls a web_* function with `text` in the input buffer (null: keep the
    // previous input) and parses its JSON answer.
    call(name, text, ...args) {
        const x = this.exports;
        if (text !== null) {
            const bytes = this.encoder.encode(text);
            const at = x.web_input(bytes.length);
            if (!at) throw new Error("out of memory for the input");
            new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
        }
        x[name](...args);
        const out = new Uint8Array(x.memory.buffer, x.web_output(), x.web_output_len());
        return JSON.parse(this.decoder.decode(out));
    },
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
    fromSolver: new Set(),
    conflicts: new Set(),
    wrong: new Set(),
    hinted: new Set(),
    pattern: new Set(),
    selected: -1,
    solution: null,
    solvers: [],
    counters: [],
};

function message(text, isError) {
    const m = $("message");
    m.textContent = text;
    m.classList.toggle("error", !!isError);
}

function symbolOf(v) {
    return v ? state.symbols[v - 1] : ".";
}

function valueOf(ch) {
    const i = state.symbols.indexOf(ch.toUpperCase());
    return i >= 0 ? i + 1 : -1;
}

function puzzleLine() {
    return state.clues.map(symbolOf).join("");
}

function boardLine() {
    return state.clues.map((c, i) => symbolOf(c || state.entries[i])).join("");
}

function shapeArgs() {
    return [state.br, state.bc, state.variant];
}

function solverByName(name) {
    return state.solvers.find((s) => s.name === name);
}

// --- drawing --------------------------------------------------------------

function buildBoard(el, interactive) {
    const n = state.n;
    el.style.setProperty("--n", n);
    el.replaceChildren();
    for (let i = 0; i < n * n; i++) {
        const r = Math.floor(i / n),
            c = i % n;
        const cell = document.createElement("div");
        cell.className = "cell";
        if (c % state.bc === state.bc - 1) cell.classList.add("box-right");
        if (r % state.br === state.br - 1) cell.classList.add("box-bottom");
        if (c === n - 1) cell.classList.add("last-col");
        if (r === n - 1) cell.classList.add("last-row");
        if (state.variant && (r === c || r === n - 1 - c)) cell.classList.add("diag");
        cell.dataset.index = i;
        if (interactive) {
            cell.addEventListener("mousedown", (e) => {
                e.preventDefault();
                select(i);
                $("board").focus();
            });
        }
        el.appendChild(cell);
    }
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
            Math.floor(ca / state.bc) === Math.floor(cb / state.bc))
    );
}

function drawBoard() {
    const cells = $("board").children;
    for (let i = 0; i < cells.length; i++) {
        const cell = cells[i];
        const clue = state.clues[i],
            entry = state.entries[i];
        cell.textContent = clue ? symbolOf(clue) : entry ? symbolOf(entry) : "";
        cell.classList.toggle("clue", !!clue);
        cell.classList.toggle("entry", !clue && !!entry && !state.fromSolver.has(i));
        cell.classList.toggle("from-solver", !clue && state.fromSolver.has(i));
        cell.classList.toggle("conflict", state.conflicts.has(i));
        cell.classList.toggle("wrong", state.wrong.has(i));
        cell.classList.toggle("hinted", state.hinted.has(i));
        cell.classList.toggle("pattern", state.pattern.has(i) && !state.hinted.has(i));
        cell.classList.toggle("selected", i === state.selected);
        cell.classList.toggle(
            "peer",
            state.selected >= 0 && i !== state.selected && isPeer(i, state.selected),
        );
        cell.setAttribute(
            "aria-label",
            `${cellName(i)}: ${cell.textContent || "blank"}${clue ? " (clue)" : ""}`,
        );
    }
}

function buildKeypad() {
    const pad = $("keypad");
    pad.replaceChildren();
    for (let v = 1; v <= state.n; v++) {
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = symbolOf(v);
        b.addEventListener("click", () => enter(v));
        pad.appendChild(b);
    }
    const erase = document.createElement("button");
    erase.type = "button";
    erase.textContent = "⌫";
    erase.setAttribute("aria-label", "erase");
    erase.addEventListener("click", () => enter(0));
    pad.appendChild(erase);
}

// --- editing --------------------------------------------------------------

function refreshConflicts() {
    const r = core.call("web_conflicts", boardLine(), ...shapeArgs());
    state.conflicts = new Set(r.ok ? r.cells : []);
}

function positionChanged() {
    state.wrong.clear();
    state.hinted.clear();
    state.pattern.clear();
    refreshConflicts();
    drawBoard();
    $("puzzle-line").value = puzzleLine();
}

function select(i) {
    state.selected = i;
    drawBoard();
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
    state.entries[i] = v;
    state.fromSolver.delete(i);
    $("check-out").textContent = "";
    positionChanged();
}

function setShape(br, bc, variant) {
    state.br = br;
    state.bc = bc;
    state.n = br * bc;
    state.variant = variant;
    $("size").value = `${br}x${bc}`;
    $("diagonal").checked = !!variant;
}

// Loads a puzzle line through the core's parser: the shape follows from the
// line's length as in `sudolab solve`, the variant from the checkbox.
function loadPuzzle(text, quiet) {
    const trimmed = text.trim();
    const r = core.call("web_parse", trimmed, 0, 0, $("diagonal").checked ? 1 : 0);
    if (!r.ok) {
        message(`Not a puzzle: ${r.why}`, true);
        return false;
    }
    setShape(r.box_rows, r.box_cols, r.variant);
    state.symbols = r.symbols;
    state.clues = Array.from(r.line, (ch) => (ch === "." ? 0 : valueOf(ch)));
    state.entries = new Array(state.n * state.n).fill(0);
    state.fromSolver.clear();
    state.selected = -1;
    state.solution = null;
    $("show-solution").disabled = true;
    buildBoard($("board"), true);
    buildKeypad();
    positionChanged();
    for (const id of ["check-out", "hint-out"]) $(id).textContent = "";
    $("solve-out").replaceChildren();
    if (!quiet) {
        message(
            r.conflict
                ? `Loaded, but the clues clash: ${r.conflict}`
                : `Loaded a ${shapeName()} puzzle with ${r.clues} clues.`,
            !!r.conflict,
        );
    }
    fillReplaySolvers();
    return true;
}

function emptyGrid() {
    const [br, bc] = $("size").value.split("x").map(Number);
    loadPuzzle(".".repeat(br * bc * br * bc), true);
    message(`Empty ${br * bc}×${br * bc} grid: type the clues, or paste a line.`);
}

function onBoardKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const n = state.n;
    let i = state.selected;
    if (["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"].includes(e.key)) {
        e.preventDefault();
        if (i < 0) {
            select(0);
            return;
        }
        const r = Math.floor(i / n),
            c = i % n;
        if (e.key === "ArrowUp" && r > 0) i -= n;
        if (e.key === "ArrowDown" && r < n - 1) i += n;
        if (e.key === "ArrowLeft" && c > 0) i -= 1;
        if (e.key === "ArrowRight" && c < n - 1) i += 1;
        select(i);
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
        } else if (/[0-9a-z]/i.test(e.key)) {
            message(`'${e.key}' is not a value of a ${n}×${n} grid (${state.symbols}).`, true);
        }
    }
}

// --- solving --------------------------------------------------------------

// Runs fn once the browser has painted, so that a "working…" message shows
// before a call that blocks the page.
function afterPaint(fn) {
    requestAnimationFrame(() => setTimeout(fn, 0));
}

function budgetMs() {
    return Math.max(0, Number($("budget-ms").value) || 0);
}

function showResult(r, what) {
    const t = $("solve-out");
    t.replaceChildren();
    const row = (k, v) => {
        const tr = t.insertRow();
        const th = document.createElement("th");
        th.textContent = k;
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
        row(name, r.counters && name in r.counters ? r.counters[name].toLocaleString("en") : "n/a");
    }
    row("time", formatNs(r.time_ns));
    if (r.error) row("error", r.error);
}

function formatNs(ns) {
    if (ns < 1e3) return `${ns} ns`;
    if (ns < 1e6) return `${(ns / 1e3).toFixed(1)} µs`;
    if (ns < 1e9) return `${(ns / 1e6).toFixed(2)} ms`;
    return `${(ns / 1e9).toFixed(2)} s`;
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

function solve(limit) {
    const s = solverByName($("solver").value);
    const what = limit === 1 ? "solve" : "count";
    if (limit !== 1 && !s.count) {
        message(`${s.name} finds one solution only; pick another back end to count.`, true);
        return;
    }
    message(`${s.name}: ${what === "solve" ? "solving" : "counting"}…`);
    afterPaint(() => {
        const r = core.call(
            "web_solve",
            puzzleLine(),
            s.index,
            ...shapeArgs(),
            limit,
            budgetMs(),
            0,
        );
        showResult(r, what);
        if (!r.ok) {
            message(r.why, true);
            return;
        }
        state.solution = r.solution || null;
        $("show-solution").disabled = !state.solution;
        const found = `${r.solutions} solution${r.solutions === 1 ? "" : "s"}`;
        const verdict = verdicts[r.status] || r.status;
        let text = `${s.name}: ${r.status} (${verdict}), ${found}, ${formatNs(r.time_ns)}.`;
        if (what === "count" && r.status === "limit")
            text = `${s.name}: at least ${r.solutions} solutions before the budget ran out.`;
        if (r.error) text += ` ${r.error}`;
        message(text, r.status === "error" || r.status === "invalid");
        if (what === "solve" && state.solution) fillSolution();
    });
}

function fillSolution() {
    if (!state.solution) return;
    for (let i = 0; i < state.n * state.n; i++) {
        if (!state.clues[i]) {
            state.entries[i] = valueOf(state.solution[i]);
            state.fromSolver.add(i);
        }
    }
    positionChanged();
}

// --- checking, hints, grading ---------------------------------------------

function check() {
    const r = core.call("web_check", `${puzzleLine()}\n${boardLine()}`, ...shapeArgs());
    const out = $("check-out");
    if (!r.ok) {
        out.textContent = r.why;
        out.className = "out bad";
        return;
    }
    state.wrong = new Set(r.wrong);
    drawBoard();
    const texts = {
        correct: "Correct: a valid solution of this puzzle.",
        wrong: `Not right: ${r.why}.`,
        incomplete: `So far so good: ${r.why}.`,
    };
    out.textContent = texts[r.verdict] || r.why;
    out.dataset.verdict = r.verdict;
    out.className = `out ${r.verdict === "wrong" ? "bad" : r.verdict === "correct" ? "good" : ""}`;
}

function shapeName() {
    return `${state.n}×${state.n}${state.variant ? " diagonal" : ""}`;
}

function cellName(i) {
    return `r${Math.floor(i / state.n) + 1}c${(i % state.n) + 1}`;
}

function hint() {
    const out = $("hint-out");
    const r = core.call("web_hint", boardLine(), ...shapeArgs());
    state.hinted.clear();
    state.pattern.clear();
    if (!r.ok) {
        out.textContent = `No hint: ${r.why}.`;
        drawBoard();
        return;
    }
    if (!r.found) {
        out.textContent = `No hint: ${r.why}.`;
        drawBoard();
        return;
    }
    const label = r.label.charAt(0).toUpperCase() + r.label.slice(1);
    let text;
    if (r.cell >= 0) {
        const where = r.unit ? ` (${r.unit})` : "";
        text = `${label}: ${symbolOf(r.value)} goes in ${cellName(r.cell)}${where}.`;
        state.hinted.add(r.cell);
    } else {
        const vals = r.values.map(symbolOf).join(", ");
        const elims = r.elim.map(([c, v]) => `${symbolOf(v)} from ${cellName(c)}`).join(", ");
        text = `${label} on ${vals}${r.unit ? ` in ${r.unit}` : ""}: remove ${elims}.`;
        for (const c of r.pattern) state.pattern.add(c);
    }
    out.textContent = text;
    out.dataset.technique = r.technique;
    drawBoard();
}

function grade() {
    const out = $("hint-out");
    const r = core.call("web_rate", puzzleLine(), ...shapeArgs(), 10);
    if (!r.ok) {
        out.textContent = `No grade: ${r.why}.`;
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
    out.textContent =
        `Grade: ${r.blanks} blanks (seed 004 level ${r.blanks_level}), ` +
        `degree of freedom ${r.freedom} (level ${r.freedom_level}), ` +
        `search effort ${r.guesses.toFixed(2)} (mean ln(guesses+1) of ${r.guess_solver} ` +
        `over ${r.permutations} permutations, ${r.guesses_raw} guesses); ${logic}.`;
    out.dataset.technique = lg.hardest;
}

// --- generating -----------------------------------------------------------

function setupGenerator(list) {
    const methods = list.generate ? list.generate.methods : [];
    const levels = list.generate ? list.generate.levels : [];
    const fill = (sel, items) => {
        sel.replaceChildren();
        for (const it of items) {
            const o = document.createElement("option");
            o.value = it.name;
            o.textContent = it.label || it.name;
            if (it.summary) o.title = it.summary;
            sel.appendChild(o);
        }
    };
    fill($("gen-method"), methods);
    fill($("gen-level"), levels);
    if (!core.has("web_generate") || methods.length === 0) {
        $("generate").disabled = true;
        $("generate-out").textContent = "The generator is not in this build.";
    }
}

function generate() {
    const seed = $("gen-seed").value.trim() || "0";
    const method = $("gen-method").value,
        level = $("gen-level").value;
    const flags = ["symmetric", "minimal"].filter((f) => $(`gen-${f}`).checked);
    const [br, bc] = $("size").value.split("x").map(Number);
    message(`Generating (${method}, ${level}, seed ${seed})…`);
    afterPaint(() => {
        const r = core.call(
            "web_generate",
            `${method} ${level} ${seed} ${flags.join(" ")}`,
            br,
            bc,
            $("diagonal").checked ? 1 : 0,
        );
        const out = $("generate-out");
        if (!r.ok) {
            out.textContent = r.why;
            message(r.why, true);
            return;
        }
        loadPuzzle(r.puzzle, true);
        const options = [
            `--method ${r.method}`,
            `--level ${r.level}`,
            `--seed ${r.seed}`,
            `--size ${br}x${bc}`,
            ...(state.variant ? ["--variant diagonal"] : []),
            ...flags.map((f) => `--${f}`),
        ];
        out.textContent =
            `${r.method}, ${r.level} (${r.target}), seed ${r.seed}: ${r.clues} clues, unique ` +
            `(made with ${r.solver}, verified by ${r.verifier}) in ${formatNs(r.time_ns)}. ` +
            `Same as: sudolab generate ${options.join(" ")}`;
        out.dataset.puzzle = r.puzzle;
        message(`Generated a ${shapeName()} puzzle with ${r.clues} clues (seed ${r.seed}).`);
    });
}

// --- replay ---------------------------------------------------------------

const replay = {
    slots: [null, null], // per slot: { events, solver, k }
    timer: null,
};

function fillReplaySolvers() {
    const tracers = state.solvers.filter(
        (s) =>
            s.trace && s.min_n <= state.n && state.n <= s.max_n && (!state.variant || s.diagonal),
    );
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
    for (const slot of [0, 1]) {
        replay.slots[slot] = null;
        drawPuzzleOnly(slot);
        const slider = $(`replay-slider-${slot}`);
        slider.max = 0;
        slider.value = 0;
        slider.disabled = true;
        $(`replay-info-${slot}`).textContent = "";
    }
    setReplayButtons();
}

function setReplayButtons() {
    const any = replay.slots.some((s) => s);
    for (const id of ["play-pause", "step-back", "step-fwd", "goto", "goto-solution"])
        $(id).disabled = !any;
}

function record() {
    stopPlaying();
    const line = puzzleLine();
    message("Recording the traces…");
    afterPaint(() => {
        const notes = [];
        for (const slot of [0, 1]) {
            const name = $(`replay-solver-${slot}`).value;
            replay.slots[slot] = null;
            const slider = $(`replay-slider-${slot}`);
            if (!name) {
                drawPuzzleOnly(slot);
                $(`replay-info-${slot}`).textContent = "";
                slider.disabled = true;
                continue;
            }
            const s = solverByName(name);
            const r = core.call(
                "web_trace",
                line,
                slot,
                s.index,
                ...shapeArgs(),
                Math.max(budgetMs(), 20000),
                0,
            );
            if (!r.ok) {
                $(`replay-info-${slot}`).textContent = r.why;
                notes.push(`${name}: ${r.why}`);
                continue;
            }
            replay.slots[slot] = { events: r.events, solver: s, k: 0, result: r };
            slider.max = r.events;
            slider.value = 0;
            slider.disabled = false;
            buildBoard($(`replay-board-${slot}`), false);
            showReplay(slot, 0);
            notes.push(
                `${name}: ${r.events.toLocaleString("en")} events, ${r.status}` +
                    (r.truncated ? " (trace cut short)" : "") +
                    (r.inconsistent ? " (events do not replay cleanly!)" : ""),
            );
        }
        setReplayButtons();
        message(`Recorded. ${notes.join("; ")}.`);
    });
}

// Before a trace is recorded, a replay board shows the clues alone.
function drawPuzzleOnly(slot) {
    const board = $(`replay-board-${slot}`);
    buildBoard(board, false);
    const cells = board.children;
    for (let i = 0; i < cells.length; i++) {
        cells[i].textContent = state.clues[i] ? symbolOf(state.clues[i]) : "";
        cells[i].classList.toggle("clue", !!state.clues[i]);
    }
}

const kindText = {
    singleton: "singleton",
    guess: "tentative",
    undo: "undo",
    dead: "dead end",
    solution: "solution",
};

function showReplay(slot, k) {
    const sl = replay.slots[slot];
    if (!sl) return;
    const r = core.call("web_trace_state", null, slot, k);
    if (!r.ok) return;
    sl.k = r.k;
    $(`replay-slider-${slot}`).value = r.k;
    const cells = $(`replay-board-${slot}`).children;
    const classes = ["", "clue", "tentative", "singleton"];
    for (let i = 0; i < cells.length; i++) {
        const cell = cells[i];
        cell.textContent = r.values[i] === "." ? "" : r.values[i];
        cell.classList.remove("clue", "tentative", "singleton", "current", "dead");
        const cls = classes[Number(r.classes[i])];
        if (cls) cell.classList.add(cls);
    }
    let text = `event ${r.k.toLocaleString("en")} / ${r.events.toLocaleString("en")}`;
    if (r.event) {
        const e = r.event;
        if (e.cell >= 0 && e.cell < cells.length)
            cells[e.cell].classList.add(e.kind === "dead" ? "dead" : "current");
        text += `: ${kindText[e.kind] || e.kind}`;
        if (e.cell >= 0) text += ` ${e.value ? `${symbolOf(e.value)} ` : ""}at ${cellName(e.cell)}`;
        text +=
            "\n" +
            Object.entries(r.counters)
                .map(
                    ([c, v]) =>
                        `${c.replace("article_steps", "article step")} ${v.toLocaleString("en")}`,
                )
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
}

function stepAll(delta) {
    let moved = false;
    for (const slot of [0, 1]) {
        const sl = replay.slots[slot];
        if (!sl) continue;
        const k = Math.min(sl.events, Math.max(0, sl.k + delta));
        if (k !== sl.k) {
            showReplay(slot, k);
            moved = true;
        }
    }
    return moved;
}

function stopPlaying() {
    if (replay.timer) {
        clearInterval(replay.timer);
        replay.timer = null;
    }
    $("play-pause").textContent = "Play";
}

function playPause() {
    if (replay.timer) {
        stopPlaying();
        return;
    }
    // From the end, start over.
    if (replay.slots.every((s) => !s || s.k >= s.events)) {
        for (const slot of [0, 1]) if (replay.slots[slot]) showReplay(slot, 0);
    }
    $("play-pause").textContent = "Pause";
    replay.timer = setInterval(() => {
        if (!stepAll(Number($("speed").value))) stopPlaying();
    }, 40);
}

function gotoCounter() {
    stopPlaying();
    const counter = $("goto-counter").value;
    const value = Math.max(0, Number($("goto-value").value) || 0);
    const index = state.counters.indexOf(counter);
    const notes = [];
    for (const slot of [0, 1]) {
        const sl = replay.slots[slot];
        if (!sl) continue;
        if (!sl.solver.counters.includes(counter)) {
            notes.push(`${sl.solver.name} has no ${counter} counter`);
            continue;
        }
        const k = core.exports.web_trace_find(slot, index, value);
        if (k < 0) {
            showReplay(slot, sl.events);
            notes.push(`${sl.solver.name} never reaches ${counter} ${value}`);
        } else {
            showReplay(slot, k);
        }
    }
    if (notes.length) message(notes.join("; ") + ".");
}

// Back ends that unwind after a solution erase it event by event: the
// solution is on the board just after the SOLUTION event.
function gotoSolution() {
    stopPlaying();
    for (const slot of [0, 1]) {
        const sl = replay.slots[slot];
        if (sl) showReplay(slot, sl.result.solution_at || sl.events);
    }
}

// --- batch timing ---------------------------------------------------------

function runBatch() {
    const s = solverByName($("batch-solver").value);
    const text = $("batch-input").value;
    const passes = Math.max(1, Math.min(100, Number($("batch-passes").value) || 1));
    const limit = Number($("batch-limit").value);
    $("batch-out").textContent = "Running…";
    afterPaint(() => {
        const r = core.call(
            "web_batch",
            text,
            s.index,
            0,
            0,
            $("diagonal").checked ? 1 : 0,
            limit,
            passes,
        );
        const out = $("batch-out");
        if (!r.ok) {
            out.textContent = r.why;
            return;
        }
        const per = r.best_pass_ns / r.puzzles;
        const statuses = Object.entries(r.status)
            .map(([k, v]) => `${v} ${k}`)
            .join(", ");
        out.textContent =
            `${r.solver}: ${r.puzzles} puzzles (${statuses}` +
            (r.bad ? `, ${r.bad} unreadable` : "") +
            `); fastest of ${r.passes} pass${r.passes === 1 ? "" : "es"} ` +
            `${formatNs(r.best_pass_ns)}, ` +
            `${formatNs(Math.round(per))} per puzzle, ` +
            `${Math.round(1e9 / per).toLocaleString("en")} puzzles/s` +
            (r.counters.guesses !== undefined
                ? `, ${(r.counters.guesses / r.puzzles).toFixed(2)} guesses per puzzle`
                : "") +
            ".";
        out.dataset.result = JSON.stringify(r);
    });
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

async function start() {
    try {
        await core.load("sudolab.wasm");
    } catch (err) {
        message(
            `Could not load sudolab.wasm: ${err.message}. ` +
                "Serve this folder with scripts/serve-web.sh.",
            true,
        );
        return;
    }
    const list = core.call("web_list", null);
    state.solvers = list.solvers;
    state.counters = list.counters;
    fillSolverSelect($("solver"), () => true, list.default);
    fillSolverSelect($("batch-solver"), () => true, list.default);
    describeSolver();
    const gc = $("goto-counter");
    for (const c of list.counters) {
        const o = document.createElement("option");
        o.value = c;
        o.textContent = c.replace("article_steps", "article step");
        gc.appendChild(o);
    }
    gc.value = "article_steps";
    setupGenerator(list);
    $("hint").disabled = !core.has("web_hint");
    $("rate").disabled = !core.has("web_rate");
    $("about").textContent =
        `sudolab ${list.version} (${list.compiler}, ${list.buildtype}), ` +
        `${list.solvers.length} back ends in this build: ` +
        `${list.solvers.map((s) => s.name).join(", ")}.`;

    $("size").addEventListener("change", emptyGrid);
    $("diagonal").addEventListener("change", () => loadPuzzle(puzzleLine(), true));
    $("new-empty").addEventListener("click", emptyGrid);
    $("clear-entries").addEventListener("click", () => {
        state.entries.fill(0);
        state.fromSolver.clear();
        positionChanged();
    });
    $("load").addEventListener("click", () => loadPuzzle($("puzzle-line").value));
    $("puzzle-line").addEventListener("keydown", (e) => {
        if (e.key === "Enter") loadPuzzle($("puzzle-line").value);
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
    $("solver").addEventListener("change", describeSolver);
    $("solve").addEventListener("click", () => solve(1));
    $("count").addEventListener("click", () => solve(0));
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
    $("goto").addEventListener("click", gotoCounter);
    $("goto-solution").addEventListener("click", gotoSolution);
    for (const slot of [0, 1]) {
        $(`replay-slider-${slot}`).addEventListener("input", (e) => {
            stopPlaying();
            showReplay(slot, Number(e.target.value));
        });
    }
    $("batch-run").addEventListener("click", runBatch);
    $("batch-file").addEventListener("change", async (e) => {
        const file = e.target.files[0];
        if (file) $("batch-input").value = await file.text();
    });

    // Gordon Royle's puzzle, the one in Moler's article, to start with.
    loadPuzzle(
        ".2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2.",
        true,
    );
    const m = solverByName("moler");
    if (m) $("replay-solver-0").value = "moler";
    const second = state.solvers.find(
        (s) => s.trace && s.name !== "moler" && s.name !== "naive" && s.name !== "naive_stack",
    );
    if (second) $("replay-solver-1").value = second.name;
    document.body.dataset.ready = "1";
    message("Ready: Gordon Royle's puzzle from Moler's article is loaded.");
}

start();
