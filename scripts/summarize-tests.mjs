#!/usr/bin/env node
// Reads the JSON reports of the test runners and prints one closing line for CI:
//
//   N passed, N failed[, N skipped]
//
// CI counts tests only from that line (docs: toolchain pitfall 7). Exit code 1 when anything
// failed or nothing passed, 0 otherwise.
//
// Reports (in TEST_REPORT_DIR, default .ci-out at the repository root):
//   vitest.json      vitest's JSON reporter: numPassedTests, numFailedTests, numPendingTests,
//                    numTodoTests (+ numFailedTestSuites / success for files that failed to load)
//   playwright.json  Playwright's JSON reporter: stats.expected, unexpected, flaky, skipped
//                    (+ errors[] for failures outside tests: webServer, globalSetup)
//   chaos.json       npm run chaos (scripts/chaos/run.ts): passed, failed (one per check)
//   soak.json        npm run soak (scripts/chaos/soak.ts): the same shape
// A runner whose report is missing or unreadable counts as 1 failed test: it was supposed to run.
// SUMMARY_RUNNERS (default "vitest,playwright,chaos,soak") says which runners were supposed to run.
//
// Usage: node scripts/summarize-tests.mjs [--quiet]
//   Without --quiet a short per-runner breakdown comes first (worded so that it never looks like
//   the closing line); the closing line is always the last line on stdout.

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const reportDir = path.resolve(repoRoot, process.env.TEST_REPORT_DIR || ".ci-out");
const quiet = process.argv.includes("--quiet");
const wanted = (process.env.SUMMARY_RUNNERS ?? "vitest,playwright,chaos,soak")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);

/** A path as short as possible for messages: relative when below the working directory. */
const show = (p) => {
  const rel = path.relative(process.cwd(), p);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : p;
};

const num = (v) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.trunc(v) : 0);

function readJson(file) {
  const text = readFileSync(file, "utf8");
  return JSON.parse(text);
}

/** @returns {{passed:number, failed:number, skipped:number, note?:string}} */
function fromVitest(r) {
  const passed = num(r.numPassedTests);
  let failed = num(r.numFailedTests);
  const skipped = num(r.numPendingTests) + num(r.numTodoTests);
  let note;
  // A test file that fails to import (or whose hooks throw) has a failed file but no failed
  // test: count each such file as one failure.
  const files = Array.isArray(r.testResults) ? r.testResults : null;
  const brokenFiles = files
    ? files.filter((f) => f.status === "failed" && !(f.assertionResults ?? []).some((a) => a.status === "failed"))
        .length
    : failed === 0
      ? num(r.numFailedTestSuites)
      : 0;
  if (brokenFiles > 0) {
    failed += brokenFiles;
    note = `${brokenFiles} test file(s) failed outside tests`;
  }
  // Unhandled errors make vitest fail even when every test passed.
  if (failed === 0 && r.success === false) {
    failed = 1;
    note = "vitest reported success=false (unhandled error?)";
  }
  return { passed, failed, skipped, note };
}

function fromPlaywright(r) {
  const s = r && typeof r.stats === "object" && r.stats !== null ? r.stats : null;
  if (!s) throw new Error("no stats object");
  // Flaky tests failed and then passed on retry: they count as passed (CI uses retries: 0).
  const passed = num(s.expected) + num(s.flaky);
  let failed = num(s.unexpected);
  const skipped = num(s.skipped);
  let note;
  // Errors outside any test (webServer did not start, globalSetup threw) leave the stats at 0.
  const errors = Array.isArray(r.errors) ? r.errors.length : 0;
  if (errors > 0) {
    failed += errors;
    note = `${errors} error(s) outside tests (webServer/globalSetup?)`;
  }
  return { passed, failed, skipped, note };
}

function fromChaos(r) {
  if (!Array.isArray(r.tests)) throw new Error("no tests array");
  const failed = r.tests.filter((t) => !t.ok).length;
  return { passed: r.tests.length - failed, failed, skipped: 0, note: `seed ${r.seed}` };
}

const runners = {
  vitest: { file: "vitest.json", parse: fromVitest },
  playwright: { file: "playwright.json", parse: fromPlaywright },
  chaos: { file: "chaos.json", parse: fromChaos },
  soak: { file: "soak.json", parse: fromChaos },
};

const total = { passed: 0, failed: 0, skipped: 0 };
const breakdown = [];

for (const name of wanted) {
  const runner = runners[name];
  if (!runner) {
    breakdown.push(`  ${name}: unknown runner in SUMMARY_RUNNERS (counted as 1 failure)`);
    total.failed += 1;
    continue;
  }
  const file = path.join(reportDir, runner.file);
  let c;
  try {
    c = runner.parse(readJson(file));
  } catch (err) {
    const why = err && err.code === "ENOENT" ? "report missing" : `report unreadable (${err.message})`;
    c = { passed: 0, failed: 1, skipped: 0, note: `${why}: ${show(file)}` };
  }
  total.passed += c.passed;
  total.failed += c.failed;
  total.skipped += c.skipped;
  breakdown.push(
    `  ${name.padEnd(10)} passed=${c.passed} failed=${c.failed} skipped=${c.skipped}${c.note ? `  (${c.note})` : ""}`,
  );
}

if (!quiet) {
  process.stdout.write(`Test summary (${show(reportDir)}):\n${breakdown.join("\n")}\n`);
}

let line = `${total.passed} passed, ${total.failed} failed`;
if (total.skipped > 0) line += `, ${total.skipped} skipped`;
process.stdout.write(`${line}\n`);

process.exitCode = total.failed > 0 || total.passed === 0 ? 1 : 0;
