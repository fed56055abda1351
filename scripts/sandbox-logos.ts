/**
 * `npx tsx scripts/sandbox-logos.ts`: draws the sandbox banks' logos (lib/sandbox/logos/<id>.png)
 * from their generated SVG, in Chromium. Run it after adding a test bank; the files are committed.
 *
 * PNG because the provider's CDN serves its bank logos as PNG (provider-api.md, `imageUri`), and
 * because each SVG `<img>` is a document of its own to the browser: on a phone-speed CPU six of
 * them cost the checkout page more main-thread time than its whole stylesheet (issue 16).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "@playwright/test";
import { listBanks, logoSvg } from "../lib/sandbox/banks";

const SIZE = 96;
const dir = path.join(import.meta.dirname, "..", "lib", "sandbox", "logos");

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium" });
try {
  const page = await browser.newPage({ viewport: { width: SIZE, height: SIZE } });
  for (const bank of listBanks()) {
    const svg = logoSvg(bank);
    await page.setContent(`<style>html,body{margin:0;background:transparent}</style>${svg}`);
    const png = await page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: SIZE, height: SIZE } });
    writeFileSync(path.join(dir, `${bank.id}.png`), png);
  }
  console.log(`${listBanks().length} logos in ${path.relative(process.cwd(), dir)}`);
} finally {
  await browser.close();
}
