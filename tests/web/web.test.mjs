// The page in a real browser: Debian's Chromium driven by playwright-core.
// Run by tests/web/run.sh, which builds the page into SUDOLAB_WEB_SITE first.
// Every answer the page shows is checked here by code that shares nothing with
// sudolab (checkSolution below), or against the native `sudolab` binary, or
// against published facts (Moler's article, Royle's solution, 288 4x4 grids).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { chromium } from "playwright-core";

const site = process.env.SUDOLAB_WEB_SITE;
const outDir = process.env.SUDOLAB_WEB_OUT || ".";
const shots = path.join(outDir, "screenshots");
const bin = process.env.SUDOLAB_BIN;
const datasets = process.env.SUDOLAB_DATASETS; // datasets/public

// Seed 003's 2012 puzzle and Gordon Royle's puzzle from Moler's article (with
// the solution moler.md gives).
const PUZZLE_2012 =
    "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const ROYLE = ".2..3..4.6.......3..4...5.....8.6...8...1...6...7.5.....7...6..4.......8.3..4..2.";
const ROYLE_SOLUTION =
    "925631847618574293374982561749826135852413976163795482287359614491267358536148729";

let server, browser, page, baseUrl, profile;
let list; // the page's list of back ends

function serve(dir) {
    const types = {
        ".html": "text/html",
        ".js": "text/javascript",
        ".css": "text/css",
        ".wasm": "application/wasm",
    };
    const srv = http.createServer((req, res) => {
        const name = decodeURIComponent(new URL(req.url, "http://x").pathname);
        const file = path.join(dir, name === "/" ? "index.html" : name);
        if (!file.startsWith(dir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
            res.writeHead(404);
            res.end("not found");
            return;
        }
        // Cross-origin isolation gives the page's clock its finest resolution.
        res.writeHead(200, {
            "content-type": types[path.extname(file)] || "application/octet-stream",
            "cross-origin-opener-policy": "same-origin",
            "cross-origin-embedder-policy": "require-corp",
        });
        fs.createReadStream(file).pipe(res);
    });
    return new Promise((resolve) => srv.listen(0, "127.0.0.1", () => resolve(srv)));
}

// An independent checker: every row, column and box (and both diagonals for
// the diagonal variant) of the answer holds 1..n once, and every clue is kept.
// Symbols 1-9 then A, B, ...
function checkSolution(puzzle, answer, br, bc, diagonal = false) {
    const n = br * bc;
    const val = (ch) => parseInt(ch, 36);
    if (answer.length !== n * n) return `length ${answer.length}`;
    for (let i = 0; i < n * n; i++) {
        if (puzzle[i] !== "." && puzzle[i] !== answer[i]) return `clue ${i} changed`;
        const v = val(answer[i]);
        if (!(v >= 1 && v <= n)) return `cell ${i} holds '${answer[i]}'`;
    }
    const units = [];
    for (let a = 0; a < n; a++) {
        const row = [],
            col = [],
            box = [];
        for (let k = 0; k < n; k++) {
            row.push(a * n + k);
            col.push(k * n + a);
            const top = Math.floor(a / br) * br,
                left = (a % br) * bc;
            box.push((top + Math.floor(k / bc)) * n + left + (k % bc));
        }
        units.push(row, col, box);
    }
    if (diagonal) {
        units.push(Array.from({ length: n }, (_, k) => k * n + k));
        units.push(Array.from({ length: n }, (_, k) => k * n + n - 1 - k));
    }
    for (const u of units) {
        const seen = new Set(u.map((i) => answer[i]));
        if (seen.size !== n) return `unit ${u.join(",")} repeats a value`;
    }
    return null;
}

async function shot(name) {
    fs.mkdirSync(shots, { recursive: true });
    const file = path.join(shots, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(`screenshot: ${file}`);
}

async function pastePuzzle(line) {
    // A real paste event on the board, as Ctrl+V sends it.
    await page.evaluate((text) => {
        const dt = new DataTransfer();
        dt.setData("text/plain", text);
        document
            .getElementById("board")
            .dispatchEvent(
                new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }),
            );
    }, line);
}

async function boardLine() {
    return page.$$eval("#board .cell", (cells) => cells.map((c) => c.textContent || ".").join(""));
}

function hasSolver(name) {
    return list.solvers.some((s) => s.name === name);
}

before(async () => {
    assert.ok(
        site && fs.existsSync(path.join(site, "sudolab.wasm")),
        "SUDOLAB_WEB_SITE has the built page",
    );
    server = await serve(path.resolve(site));
    baseUrl = `http://127.0.0.1:${server.address().port}/`;
    profile = fs.mkdtempSync(path.join(outDir, "chromium-profile-"));
    // A fresh profile each run; the flags keep Chromium off the (closed) network.
    browser = await chromium.launchPersistentContext(profile, {
        executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
        headless: true,
        viewport: { width: 1280, height: 900 },
        args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
    });
    page = browser.pages()[0] || (await browser.newPage());
    const problems = [];
    page.on("pageerror", (err) => problems.push(err.message));
    page.on("console", (msg) => {
        if (msg.type() === "error") problems.push(msg.text());
    });
    page.problems = problems;
    // Offline: anything not from our own server is refused and reported.
    await page.route("**/*", (route) => {
        if (route.request().url().startsWith(baseUrl)) return route.continue();
        problems.push(`external request: ${route.request().url()}`);
        return route.abort();
    });
    await page.goto(baseUrl);
    await page.waitForSelector("body[data-ready='1']", { timeout: 30000 });
    list = await page.evaluate(() => core.call("web_list", null));
});

after(async () => {
    if (browser) await browser.close();
    if (server) server.close();
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
});

test("the page loads offline, with the back ends of the C core", async () => {
    assert.deepEqual(page.problems, []);
    for (const name of ["naive", "naive_stack"])
        assert.ok(hasSolver(name), `${name} is in the page`);
    for (const name of ["sat", "milp"])
        assert.ok(!hasSolver(name), `${name} needs a native library and is left out`);
    assert.equal(await page.$$eval("#board .cell", (c) => c.length), 81);
    assert.equal(await boardLine(), ROYLE);
    await shot("page");
});

test("paste seed 003's 2012 puzzle, solve with dlx, read back a verified solution", async (t) => {
    if (!hasSolver("dlx")) {
        t.skip("dlx is not registered in this build");
        return;
    }
    await pastePuzzle(PUZZLE_2012);
    assert.equal(await boardLine(), PUZZLE_2012);
    await page.selectOption("#solver", "dlx");
    await page.click("#solve");
    await page.waitForSelector("#solve-out td[data-field='status']");
    assert.equal(await page.textContent("#solve-out td[data-field='back end']"), "dlx");
    assert.equal(await page.textContent("#solve-out td[data-field='status']"), "solved");
    const answer = await boardLine();
    assert.equal(checkSolution(PUZZLE_2012, answer, 3, 3), null, `solution ${answer}`);
    for (const name of ["steps", "nodes"]) {
        const text = await page.textContent(`#solve-out td[data-field='${name}']`);
        assert.match(text, /^[0-9,]+$|^n\/a$/, `${name} shown`);
    }
    await page.click("#count");
    await page.waitForFunction(() =>
        document.querySelector("#solve-out td[data-field='solutions counted']"),
    );
    assert.equal(await page.textContent("#solve-out td[data-field='status']"), "unique");
    await shot("solve-dlx");
});

test("generate with a seed gives what `sudolab generate` gives", async (t) => {
    if (!(await page.isEnabled("#generate"))) {
        t.skip("the generator is not in this build");
        return;
    }
    assert.ok(bin, "SUDOLAB_BIN is set");
    const cases = [
        { size: "3x3", method: "dig", level: "medium", seed: "2024", cells: 81 },
        { size: "2x3", method: "seed003", level: "hard", seed: "7", cells: 36 },
        { size: "3x3", method: "dig", level: "easy", seed: "5", cells: 81, diagonal: true },
    ];
    for (const c of cases) {
        await page.selectOption("#size", c.size);
        await page.setChecked("#diagonal", !!c.diagonal);
        await page.selectOption("#gen-method", c.method);
        await page.selectOption("#gen-level", c.level);
        await page.fill("#gen-seed", c.seed);
        await page.$eval("#generate-out", (e) => delete e.dataset.puzzle);
        await page.click("#generate");
        await page.waitForFunction(
            () => document.getElementById("generate-out").dataset.puzzle,
            null,
            { timeout: 60000 },
        );
        const fromPage = await page.$eval("#generate-out", (e) => e.dataset.puzzle);
        assert.equal(fromPage.length, c.cells);
        assert.equal(await boardLine(), fromPage, "the generated puzzle is on the board");
        const native = spawnSync(
            bin,
            [
                "generate",
                "--method",
                c.method,
                "--level",
                c.level,
                "--seed",
                c.seed,
                "--size",
                c.size,
                "--count",
                "1",
                ...(c.diagonal ? ["--variant", "diagonal"] : []),
            ],
            { encoding: "utf8" },
        );
        assert.equal(native.status, 0, native.stderr);
        const line = native.stdout.split("\n").find((l) => l && !l.startsWith("#"));
        assert.ok(line, `sudolab generate printed a puzzle: ${native.stdout}`);
        assert.equal(fromPage, line.split(/[\s,;:]/)[0], `${c.method} ${c.level} seed ${c.seed}`);
        if (c.size === "3x3" && !c.diagonal) await shot("generate");
        if (c.diagonal) {
            // The diagonals are shaded, and dlx solves the diagonal puzzle.
            assert.equal(await page.$$eval("#board .cell.diag", (cs) => cs.length), 17);
            await page.selectOption("#solver", "dlx");
            await page.click("#solve");
            await page.waitForSelector("#solve-out td[data-field='status']");
            assert.equal(await page.textContent("#solve-out td[data-field='status']"), "solved");
            const answer = await boardLine();
            assert.equal(checkSolution(fromPage, answer, 3, 3, true), null, answer);
            await shot("generate-diagonal");
            await page.setChecked("#diagonal", false);
        }
    }
});

test("replay moler on Royle's puzzle to article step 22: the first column is filled", async (t) => {
    if (!hasSolver("moler")) {
        t.skip("moler is not registered in this build");
        return;
    }
    await pastePuzzle(ROYLE);
    await page.selectOption("#replay-solver-0", "moler");
    await page.click("#record");
    await page.waitForFunction(() => !document.getElementById("replay-slider-0").disabled);
    await page.selectOption("#goto-counter", "article_steps");
    await page.fill("#goto-value", "22");
    await page.click("#goto");
    const cells = await page.$$eval("#replay-board-0 .cell", (cs) =>
        cs.map((c) => ({ text: c.textContent, cls: c.className })),
    );
    const column = [];
    for (let r = 0; r < 9; r++) column.push(cells[r * 9].text);
    assert.ok(
        column.every((v) => /^[1-9]$/.test(v)),
        `first column ${column.join("")}`,
    );
    // The article: the tentative 1 at (1,1), then (9,1) is the singleton that
    // completes the column; clues keep their class.
    assert.equal(cells[0].text, "1");
    assert.match(cells[0].cls, /tentative/);
    assert.equal(cells[72].text, "9");
    assert.match(cells[72].cls, /singleton/);
    assert.match(cells[72].cls, /current/);
    assert.match(cells[1].cls, /clue/);
    const info = await page.textContent("#replay-info-0");
    assert.match(info, /singleton 9 at r9c1/);
    assert.match(info, /article step 22/);
    // Play a little, step, and the slider follows.
    const before22 = Number(await page.$eval("#replay-slider-0", (s) => s.value));
    await page.click("#step-fwd");
    assert.equal(Number(await page.$eval("#replay-slider-0", (s) => s.value)), before22 + 1);
    await page.click("#step-back");
    assert.equal(Number(await page.$eval("#replay-slider-0", (s) => s.value)), before22);
    await shot("replay-moler-step22");
    // Play runs on by itself; Pause stops it.
    await page.click("#play-pause");
    await page.waitForFunction(
        (k) => Number(document.getElementById("replay-slider-0").value) > k + 20,
        before22,
    );
    await page.click("#play-pause");
    const paused = await page.$eval("#replay-slider-0", (s) => s.value);
    await page.waitForTimeout(200);
    assert.equal(await page.$eval("#replay-slider-0", (s) => s.value), paused);
    // The end of moler's trace is Royle's solution.
    const max = Number(await page.$eval("#replay-slider-0", (s) => s.max));
    await page.$eval(
        "#replay-slider-0",
        (s, m) => {
            s.value = m;
            s.dispatchEvent(new Event("input"));
        },
        max,
    );
    const last = await page.$$eval("#replay-board-0 .cell", (cs) =>
        cs.map((c) => c.textContent).join(""),
    );
    assert.equal(last, ROYLE_SOLUTION);
    // Side by side: naive (which unwinds after its solution) next to moler.
    await page.selectOption("#replay-solver-1", "naive");
    await page.click("#record");
    await page.waitForFunction(() => !document.getElementById("replay-slider-1").disabled, null, {
        timeout: 60000,
    });
    await page.click("#goto-solution");
    for (const slot of [0, 1]) {
        const grid = await page.$$eval(`#replay-board-${slot} .cell`, (cs) =>
            cs.map((c) => c.textContent).join(""),
        );
        assert.equal(grid, ROYLE_SOLUTION, `replay ${slot} shows the solution`);
    }
    assert.match(await page.textContent("#replay-info-1"), /solution/);
    await shot("replay-side-by-side");
});

test("a wrong answer is flagged, clashes show as you type, a right one passes", async () => {
    await pastePuzzle(ROYLE);
    // r1c1 is blank; 1 clashes with nothing there but is not the solution's 9.
    await page.click("#board .cell >> nth=0");
    await page.keyboard.press("1");
    assert.equal(
        await page.$eval("#board .cell >> nth=0", (c) => c.classList.contains("conflict")),
        false,
    );
    await page.click("#check");
    assert.equal(await page.$eval("#check-out", (e) => e.dataset.verdict), "wrong");
    assert.equal(
        await page.$eval("#board .cell >> nth=0", (c) => c.classList.contains("wrong")),
        true,
    );
    await shot("check-wrong");
    // 2 at r1c3 clashes with the clue 2 at r1c2: red at once.
    await page.click("#board .cell >> nth=2");
    await page.keyboard.press("2");
    assert.equal(
        await page.$eval("#board .cell >> nth=2", (c) => c.classList.contains("conflict")),
        true,
    );
    assert.equal(
        await page.$eval("#board .cell >> nth=1", (c) => c.classList.contains("conflict")),
        true,
    );
    // Clues are locked.
    await page.click("#board .cell >> nth=1");
    await page.keyboard.press("5");
    assert.equal(await page.textContent("#board .cell >> nth=1"), "2");
    // Type the whole solution with the keyboard, moving with the arrows.
    await page.click("#board .cell >> nth=0");
    for (let i = 0; i < 81; i++) {
        if (ROYLE[i] === ".") await page.keyboard.press(ROYLE_SOLUTION[i]);
        if (i % 9 !== 8) await page.keyboard.press("ArrowRight");
        else if (i < 80) {
            for (let k = 0; k < 8; k++) await page.keyboard.press("ArrowLeft");
            await page.keyboard.press("ArrowDown");
        }
    }
    assert.equal(await boardLine(), ROYLE_SOLUTION);
    await page.click("#check");
    assert.equal(await page.$eval("#check-out", (e) => e.dataset.verdict), "correct");
});

test("other sizes: 4x4 counts 288 grids, 6x6 and 16x16 take their symbols", async () => {
    await page.selectOption("#size", "2x2");
    assert.equal(await page.$$eval("#board .cell", (c) => c.length), 16);
    await page.selectOption("#solver", "naive");
    await page.click("#count");
    await page.waitForFunction(() =>
        document.querySelector("#solve-out td[data-field='solutions counted']"),
    );
    assert.equal(await page.textContent("#solve-out td[data-field='solutions counted']"), "288");
    await page.selectOption("#size", "2x3");
    assert.equal(await page.$$eval("#board .cell", (c) => c.length), 36);
    await page.selectOption("#size", "4x4");
    assert.equal(await page.$$eval("#board .cell", (c) => c.length), 256);
    await page.click("#board .cell >> nth=0");
    await page.keyboard.press("g");
    assert.equal(await page.textContent("#board .cell >> nth=0"), "G");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("G");
    assert.equal(
        await page.$eval("#board .cell >> nth=1", (c) => c.classList.contains("conflict")),
        true,
    );
    await shot("grid-16x16");
    await page.setViewportSize({ width: 390, height: 844 });
    await pastePuzzle(ROYLE);
    const width = await page.$eval("#board", (b) => b.getBoundingClientRect().width);
    assert.ok(width <= 390, `the board fits a phone (${width}px)`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(overflow <= 390, `no sideways scrolling on a phone (${overflow}px)`);
    await shot("phone");
    await page.setViewportSize({ width: 1280, height: 900 });
});

test("a hint names the next technique, and the grade counts blanks", async (t) => {
    if (!(await page.isEnabled("#hint"))) {
        t.skip("the logic solver is not in this build");
        return;
    }
    await pastePuzzle(ROYLE);
    await page.click("#hint");
    const technique = await page.$eval("#hint-out", (e) => e.dataset.technique);
    assert.ok(technique, "a technique is named");
    assert.ok(
        (await page.$$eval("#board .cell.hinted, #board .cell.pattern", (c) => c.length)) > 0,
    );
    // A hidden or naked single names a cell and a value: that value must be
    // the solution's (Royle's solution is published).
    const hinted = await page.$$eval("#board .cell", (cs) =>
        cs.findIndex((c) => c.classList.contains("hinted")),
    );
    if (hinted >= 0) {
        const text = await page.textContent("#hint-out");
        assert.match(
            text,
            new RegExp(
                `: ${ROYLE_SOLUTION[hinted]} goes in ` +
                    `r${Math.floor(hinted / 9) + 1}c${(hinted % 9) + 1}`,
            ),
        );
    }
    if (await page.isEnabled("#rate")) {
        await page.click("#rate");
        // Seed 004's blank count: Royle's puzzle has 60 blanks, level 4.
        assert.match(await page.textContent("#hint-out"), /60 blanks \(seed 004 level 4\)/);
    }
});

test("speed: mrv on the first 100 puzzles of top1465, page against native", async (t) => {
    assert.ok(datasets, "SUDOLAB_DATASETS is set");
    const file = path.join(datasets, "puzzles3_magictour_top1465.xz");
    // the page reads plain text: unpacked with xz (run.sh checked it is there)
    const unpacked = spawnSync("xz", ["-dc", file], { encoding: "utf8", maxBuffer: 1 << 24 });
    assert.ifError(unpacked.error);
    assert.equal(unpacked.status, 0, unpacked.stderr);
    const solver = hasSolver("mrv") ? "mrv" : null;
    if (!solver) {
        t.skip("mrv is not registered in this build");
        return;
    }
    const lines = unpacked.stdout
        .split("\n")
        .filter((l) => l.trim() && !l.startsWith("#"))
        .slice(0, 100);
    assert.equal(lines.length, 100);
    assert.ok(bin, "SUDOLAB_BIN is set");
    const input = path.join(outDir, "top1465-first100.txt");
    fs.writeFileSync(input, lines.join("\n") + "\n");
    // Through the page's file picker, as a user would load a corpus.
    await page.setInputFiles("#batch-file", input);
    await page.waitForFunction(() => document.getElementById("batch-input").value.length > 8000);
    await page.selectOption("#batch-solver", solver);
    await page.selectOption("#batch-limit", "2");
    await page.fill("#batch-passes", "1");

    // The machine is shared and noisy: alternate page and native rounds and
    // keep each puzzle's fastest time on each side (one clean run per puzzle
    // is enough). Both sides time solver_run around the back end's solve(),
    // so the ratio compares the same code; the page's clock ticks in 5 us.
    const rounds = Number(process.env.SUDOLAB_WEB_SPEED_ROUNDS) || 20;
    const pageMin = new Array(100).fill(Infinity);
    const nativeMin = new Array(100).fill(Infinity);
    let passBest = Infinity;
    let web,
        nativeGuesses = 0;
    for (let round = 0; round < rounds; round++) {
        await page.$eval("#batch-out", (e) => delete e.dataset.result);
        await page.click("#batch-run");
        await page.waitForFunction(
            () => document.getElementById("batch-out").dataset.result,
            null,
            {
                timeout: 120000,
            },
        );
        web = JSON.parse(await page.$eval("#batch-out", (e) => e.dataset.result));
        assert.equal(web.puzzles, 100);
        assert.equal(web.status.unique, 100, "top1465's puzzles are all unique");
        web.times.forEach((t, i) => (pageMin[i] = Math.min(pageMin[i], t)));
        passBest = Math.min(passBest, web.best_pass_ns);

        const r = spawnSync(bin, ["solve", "--solver", solver, "--limit", "2", "--csv", input], {
            encoding: "utf8",
        });
        assert.equal(r.status, 0, r.stderr);
        const rows = r.stdout.trim().split("\n");
        const head = rows.shift().split(",");
        const col = (name) => head.indexOf(name);
        assert.equal(rows.length, 100);
        nativeGuesses = 0;
        rows.forEach((row, i) => {
            const f = row.split(",");
            assert.equal(f[col("status")], "unique");
            nativeMin[i] = Math.min(nativeMin[i], Number(f[col("time_ns")]));
            nativeGuesses += Number(f[col("guesses")] || 0);
        });
    }
    const sum = (a) => a.reduce((x, y) => x + y, 0);
    const pageBest = sum(pageMin),
        nativeBest = sum(nativeMin);
    await shot("speed-mrv");
    // Same core, same search: the counters agree exactly.
    if (web.counters.guesses !== undefined) assert.equal(web.counters.guesses, nativeGuesses);
    const isolated = await page.evaluate(() => self.crossOriginIsolated);
    const us = (ns) => (ns / 100 / 1e3).toFixed(1);
    const summary =
        `speed ${solver} top1465[0:100] limit 2, fastest of ${rounds} alternating rounds ` +
        `per puzzle: ` +
        `native ${us(nativeBest)} us/puzzle, page ${us(pageBest)} us/puzzle ` +
        `(whole pass ${us(passBest)}, cross-origin isolated clock: ${isolated}), ` +
        `native:page = 1:${(pageBest / nativeBest).toFixed(2)}`;
    console.log(summary);
    fs.writeFileSync(path.join(outDir, "speed.txt"), summary + "\n");
});

test("no script error and no request off this machine during the whole run", () => {
    assert.deepEqual(page.problems, []);
});
