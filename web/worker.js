// One instance of sudolab.wasm on its own thread, so that no computation
// (solving, counting, generating, timing, recording) ever holds up the page.
// The page (app.js) posts {id, name, text, args} and gets {type: "done", id,
// result}; long batches also post {type: "progress"}. The page stops a call
// by terminating this worker and starting a new one.
"use strict";

let x = null; // the instance's exports
let tickNs = 0; // the clock's resolution here
const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function init(module) {
    // The core uses the clock and nothing else of WASI: the clock is this
    // thread's monotonic one; every other call says "not supported" (52).
    const wasi = {};
    for (const imp of WebAssembly.Module.imports(module)) {
        if (imp.module === "wasi_snapshot_preview1") wasi[imp.name] = () => 52;
    }
    wasi.clock_time_get = (id, precision, out) => {
        const ns = BigInt(Math.round(performance.now() * 1e6));
        new DataView(x.memory.buffer).setBigUint64(out, ns, true);
        return 0;
    };
    const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi });
    x = instance.exports;
}

// The smallest step of performance.now() seen here: 5 us in a cross-origin
// isolated page, 100 us in Chromium otherwise. Timings are only as good.
function clockTickNs() {
    let best = Infinity;
    for (let k = 0; k < 5; k++) {
        const a = performance.now();
        let b = a;
        while (b === a) b = performance.now();
        best = Math.min(best, b - a);
    }
    return Math.round(best * 1e6);
}

// Calls a web_* export with text in the input buffer (null: keep the
// previous input) and parses its JSON answer.
function call(name, text, args) {
    if (text !== null) {
        const bytes = encoder.encode(text);
        const at = x.web_input(bytes.length);
        if (!at) throw new Error("out of memory for the input");
        new Uint8Array(x.memory.buffer, at, bytes.length).set(bytes);
    }
    const ret = x[name](...args);
    // the exports answering a position, not JSON
    if (name === "web_trace_find" || name === "web_trace_next") return { ok: true, k: ret };
    const out = new Uint8Array(x.memory.buffer, x.web_output(), x.web_output_len());
    return JSON.parse(decoder.decode(out));
}

// A batch pass by pass, so that the page can show how far it is: the fastest
// whole pass, each puzzle's fastest time, the first pass's statuses.
function batch(id, text, args) {
    const [solver, br, bc, variant, limit, passes, budgetMs] = args;
    const end = performance.now() + budgetMs;
    let merged = null;
    for (let p = 0; p < passes; p++) {
        const left = Math.max(1, Math.floor(end - performance.now()));
        const r = call("web_batch", p ? null : text, [solver, br, bc, variant, limit, 1, left]);
        if (!r.ok) return r;
        if (!merged) {
            merged = r;
        } else if (r.passes_done) {
            merged.best_pass_ns = Math.min(merged.best_pass_ns, r.best_pass_ns);
            if (merged.times && r.times)
                merged.times = merged.times.map((t, i) => Math.min(t, r.times[i]));
        }
        if (!r.passes_done) break;
        merged.passes_done = p + 1;
        postMessage({ type: "progress", id, done: p + 1, of: passes });
        if (performance.now() >= end) break;
    }
    merged.passes = passes;
    if (merged.passes_done && merged.best_pass_ns < 100 * tickNs)
        repeatUntilMeasurable(merged, args, end);
    return merged;
}

// A pass shorter than 100 ticks of a coarse clock cannot be timed: time
// passes together, more each round, until they make 1000 ticks (or the
// budget is near its end), and give their mean.
function repeatUntilMeasurable(merged, args, end) {
    const [solver, br, bc, variant, limit] = args;
    let k = Math.max(2, Math.ceil((1000 * tickNs) / Math.max(merged.best_pass_ns, tickNs)));
    for (;;) {
        const left = Math.floor(end - performance.now());
        if (left < 1) return;
        const t0 = performance.now();
        const r = call("web_batch", null, [solver, br, bc, variant, limit, k, left]);
        const ns = (performance.now() - t0) * 1e6;
        if (!r.ok || r.passes_done !== k) return;
        merged.repeated = {
            passes: k,
            mean_pass_ns: Math.round(ns / k),
            ticks: Math.round(ns / tickNs),
        };
        // the next round takes ns * grow: it must fit in what is left
        const grow = Math.max(2, Math.ceil((1000 * tickNs) / Math.max(ns, tickNs)));
        if (ns >= 1000 * tickNs || k >= 1e7 || performance.now() + (ns * grow) / 1e6 > end) return;
        k *= grow;
    }
}

onmessage = async (e) => {
    const m = e.data;
    if (m.type === "init") {
        await init(m.module);
        tickNs = clockTickNs();
        postMessage({ type: "ready", tick_ns: tickNs, isolated: self.crossOriginIsolated });
        return;
    }
    let result;
    try {
        if (typeof x[m.name] !== "function" && m.name !== "batch")
            result = { ok: false, why: `${m.name} is not in this build` };
        else if (m.name === "batch") result = batch(m.id, m.text, m.args);
        else result = call(m.name, m.text, m.args);
    } catch (err) {
        // a trap (out of memory, stack overflow): the page starts a new worker
        result = { ok: false, why: `the core failed: ${err.message}`, trapped: true };
    }
    postMessage({ type: "done", id: m.id, result });
};
