#!/usr/bin/env node
// vscode.ui: the built .vsix in a real VS Code (code-server 4.100.3 = VS Code 1.100.3, node
// extension host) driven through its UI with Debian's Chromium. Everything is asserted on what
// the page shows: squiggles, hover widgets, inlay hint text, the light bulb / quick-fix menu, the
// Problems panel and status bar, token colours, the tvmls status bar item.
// TVMLS_SCREENSHOTS=1 writes docs/images/vscode-{diagnostic,hover,quickfix}.png.
'use strict';
const fs = require('fs');
const path = require('path');
const h = require('./lib/harness');

const SHOTS = process.env.TVMLS_SCREENSHOTS === '1' ? path.join(h.REPO, 'docs', 'images') : undefined;
const SEED_B = 'seed_b_kill_in_dataflow.py';
const DUMP = 'mlp_dump.tvmscript';
let passed = 0;

function check(name, ok, detail) {
  if (!ok) throw new Error(`${name}: ${typeof detail === 'string' ? detail : JSON.stringify(detail)}`);
  passed++;
  console.log(`ok ${passed} - ${name}`);
}

async function main() {
  const t0 = Date.now();
  const lap = (what) => console.log(`# ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const cs = await h.startCodeServer({ files: [`examples/${SEED_B}`, `examples/${DUMP}`], name: 'ui', settings: { 'tvmls.trace.server': 'messages' } });
  let browser;
  try {
    browser = await h.launchBrowser();
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(15000);
    await page.goto(`${cs.url}/?folder=${encodeURIComponent(cs.workspace)}`);
    await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
    await page.waitForSelector(`.explorer-folders-view .monaco-list-row:has-text("${SEED_B}")`, { timeout: 30000 });

    const editor = (file) => `.monaco-editor[data-uri$="/${file}"]`;
    const open = async (file) => {
      await page.click(`.explorer-folders-view .monaco-list-row:has-text("${file}")`);
      await page.waitForSelector(`${editor(file)} .view-lines .view-line`);
    };
    // The rendered line whose text contains `needle` (lines are absolutely positioned divs that
    // the editor re-renders, so they are looked up again on every poll).
    const findLine = async (file, needle) => {
      for (const l of await page.$$(`${editor(file)} .view-lines .view-line`)) {
        if ((await l.innerText()).replace(/\u00a0/g, ' ').includes(needle)) return l;
      }
      return undefined;
    };
    const lineBox = (file, needle) => h.waitFor(`a line containing ${needle}`, () => findLine(file, needle));
    // The token <span> spelling exactly `text` in that line (tokenization is asynchronous).
    const token = (file, needle, text) => h.waitFor(`a token "${text}" in the line with ${needle}`, async () => {
      const line = await findLine(file, needle);
      for (const s of line ? await line.$$(':scope > span > span') : []) {
        const t = (await s.innerText()).replace(/\u00a0/g, ' ');
        if (t === text || t === `"${text}"`) return s;
      }
      return undefined;
    }, 10000);
    const colour = (el) => el.evaluate((e) => getComputedStyle(e).color);
    const hoverText = async (el, expect) => {
      await page.mouse.move(0, 0);
      await page.keyboard.press('Escape');
      const box = await el.boundingBox();
      await page.mouse.move(box.x + Math.min(box.width / 2, 12), box.y + box.height / 2);
      return h.waitFor(`a hover containing ${expect}`, async () => {
        const texts = await page.$$eval('.monaco-hover-content', (els) => els.filter((e) => e.offsetParent !== null).map((e) => e.innerText));
        const all = texts.join('\n');
        return all.includes(expect) ? all : undefined;
      }, 10000);
    };
    const problems = async () => {
      const label = await page.getAttribute('#status\\.problems', 'aria-label');
      // "Errors: 1, Warnings: 2", "Errors: 1, Infos: 1" (a kind with none is left out), "No Problems".
      const count = (kind) => {
        if (!label) return NaN;
        const m = new RegExp(`${kind}: (\\d+)`).exec(label);
        return m ? Number(m[1]) : 0;
      };
      return { label, errors: count('Errors'), warnings: count('Warnings') };
    };

    lap('workbench up');
    // 1. seed_b (.py, stays `python`): the error squiggle on the kill and its message in the hover.
    await open(SEED_B);
    const squiggle = await h.waitFor('the error squiggle on the kill_tensor(w) line', async () => {
      const line = await findLine(SEED_B, 'R.memory.kill_tensor(w)');
      const top = line && (await line.evaluate((e) => e.style.top));
      for (const ov of top ? await page.$$(`${editor(SEED_B)} .view-overlays > div`) : []) {
        if ((await ov.evaluate((e) => e.style.top)) === top) {
          const sq = await ov.$('.squiggly-error');
          if (sq) return sq;
        }
      }
      return undefined;
    }, 20000);
    check('error squiggle under R.memory.kill_tensor(w) (seed_b line 21)', squiggle, '');
    const lang = await page.innerText('#status\\.editor\\.mode');
    check('seed_b stays language Python', /python/i.test(lang), lang);
    const diagHover = await hoverText(await token(SEED_B, 'R.memory.kill_tensor(w)', 'kill_tensor'), 'inside a dataflow block');
    check('hover over the squiggle shows the diagnostic message and code',
      diagHover.includes('impure operator relax.memory.kill_tensor inside a dataflow block') && diagHover.includes('impure-in-dataflow'), diagHover);
    if (SHOTS) {
      await h.sleep(800);
      await page.screenshot({ path: path.join(SHOTS, 'vscode-diagnostic.png') });
    }
    await page.mouse.move(0, 0);
    await page.keyboard.press('Escape');
    // The Problems panel lists the message too.
    await page.keyboard.press('Control+Shift+M');
    const panel = await h.waitFor('the Problems panel', async () => {
      const t = await page.$eval('.markers-panel', (e) => e.innerText).catch(() => '');
      return t.includes('kill_tensor') ? t : undefined;
    }, 10000);
    check('Problems panel shows the kill_tensor error message and code',
      panel.includes('impure operator relax.memory.kill_tensor inside a dataflow block') && panel.includes('impure-in-dataflow'), panel.slice(0, 500));
    await page.keyboard.press('Control+J'); // hide the panel again
    await h.waitFor('the panel to close', async () => !(await page.$('.markers-panel')) || !(await page.isVisible('.markers-panel')), 5000);

    lap('seed_b done');
    // 2. The dump (.tvmscript): language, inlay hints, highlighting, hover with the shape.
    await open(DUMP);
    const mode = await h.waitFor('the TVMScript language mode', async () => {
      const m = await page.innerText('#status\\.editor\\.mode');
      return /TVMScript/.test(m) ? m : undefined;
    });
    check('mlp_dump.tvmscript opens as TVMScript', mode, mode);
    for (const v of ['lv', 'lv1', 'lv2']) {
      const l = await lineBox(DUMP, `${v}: R.Tensor((1, 256), dtype="float32") = `);
      const hint = await l.$('span[class*="dyn-rule"]');
      const hintText = hint ? (await hint.innerText()).replace(/\u00a0/g, ' ') : '';
      check(`inlay hint after \`${v}\` shows its struct info`, hintText.startsWith(': R.Tensor((1, 256), dtype="float32")'), hintText);
    }
    await h.waitFor('the annotation error squiggle in the dump', () => page.$(`${editor(DUMP)} .squiggly-error`), 15000);
    const paramLine = 'x: R.Tensor((1, 784), dtype="float32"),';
    const attrLine = 'T.func_attr({"tir.noalias": True})';
    const mmLine = '= R.matmul(x, w0)';
    const plain = await colour(await token(DUMP, mmLine, ', '));
    const cR = await colour(await token(DUMP, mmLine, 'R'));
    const cOp = await colour(await token(DUMP, mmLine, 'matmul'));
    const cTensor = await colour(await token(DUMP, paramLine, 'Tensor'));
    const cDtype = await colour(await token(DUMP, paramLine, 'float32'));
    const cStr = await colour(await token(DUMP, attrLine, 'tir.noalias'));
    const colours = { plain, R: cR, matmul: cOp, Tensor: cTensor, dtype: cDtype, string: cStr };
    check('highlighting: R., R.matmul and R.Tensor differ from plain text', cR !== plain && cOp !== plain && cTensor !== plain, colours);
    check('highlighting: the dtype string "float32" differs from a plain string and plain text', cDtype !== cStr && cDtype !== plain, colours);
    const lvHover = await hoverText(await token(DUMP, mmLine, 'lv'), 'R.Tensor((1, 256)');
    check('hover on the binding `lv` shows its struct info', /R\.Tensor\(\(1, 256\), dtype="float32"\)/.test(lvHover), lvHover);
    if (SHOTS) {
      await h.sleep(800); // let the hover finish fading in
      await page.screenshot({ path: path.join(SHOTS, 'vscode-hover.png') });
    }
    await page.mouse.move(0, 0);
    await page.keyboard.press('Escape');

    lap('dump hover done');
    // 3. Quick fix from the light bulb: the wrong `out` annotation gets the inferred one.
    // seed_b's preview tab was replaced by the dump, so only the dump's problems are counted.
    // The wrong annotation is an error; the return that follows from it is information
    // (return-annotation-mismatch), which the status bar does not count.
    // seed_b's five errors leave the count only when VS Code next pulls the workspace report
    // (the server then gives the closed file an empty one): wait for the count to settle at the
    // dump's one error, and report what it showed last if it never does. Twice in clean-clone CI
    // runs the five stayed for good: the closed tab's last document pull was overtaken by the
    // close and answered ServerCancelled without retrigger, on which vscode-languageclient 9.0.1
    // throws and never forgets the document (now answered with an empty report).
    let seen;
    const before = await h.waitFor('the Problems count of the dump', async () => {
      seen = await problems();
      return seen.errors === 1 && seen.warnings === 0 ? seen : undefined;
    }, 30000).catch(() => seen);
    check('Problems count before the fix: 1 error, no warning', before && before.errors === 1 && before.warnings === 0, before);
    const outLine = 'out: R.Tensor((1, 128), dtype="float32") = R.matmul(lv2, w1)';
    const box = await (await token(DUMP, outLine, 'Tensor')).boundingBox();
    await page.mouse.click(box.x + 4, box.y + box.height / 2);
    await page.keyboard.press('Escape');
    const bulb = await h.waitFor('the light bulb', async () => {
      const b = await page.$(`${editor(DUMP)} .lightBulbWidget`);
      return b && (await b.isVisible()) ? b : undefined;
    }, 10000);
    check('the light bulb appears on the annotation', bulb, '');
    await bulb.click();
    const fixTitle = 'Annotate with the inferred struct info R.Tensor((1, 64), dtype="float32")';
    const item = await h.waitFor('the quick-fix menu', async () => {
      const rows = await page.$$('.action-widget .monaco-list-row');
      for (const r of rows) if ((await r.innerText()).includes(fixTitle)) return r;
      return undefined;
    }, 10000);
    check('the quick-fix menu offers the inferred annotation', item, '');
    // Select it with the keyboard (the menu's pointer block swallows synthetic mouse moves).
    const focused = async () => page.$eval('.action-widget .monaco-list-row.focused', (e) => e.innerText).catch(() => '');
    for (let i = 0; i < 10 && !(await focused()).includes(fixTitle); i++) {
      await page.keyboard.press('ArrowDown');
      await h.sleep(100);
    }
    check('the fix is selected in the menu', (await focused()).includes(fixTitle), await focused());
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, 'vscode-quickfix.png') });
    await page.keyboard.press('Enter');
    await lineBox(DUMP, 'out: R.Tensor((1, 64), dtype="float32") = R.matmul(lv2, w1)');
    check('the fix rewrote the annotation', true, '');
    await h.waitFor('no squiggles left in the dump', async () =>
      (await page.$$(`${editor(DUMP)} .squiggly-error, ${editor(DUMP)} .squiggly-warning`)).length === 0, 10000);
    check('no error or warning squiggle left in the dump', true, '');
    const after = await h.waitFor('the Problems count after the fix', async () => {
      const p = await problems();
      return p.errors === 0 && p.warnings === 0 ? p : undefined;
    }, 10000);
    check('Problems count after the fix: no problems', after, after);

    lap('quick fix done');
    // 5. The tvmls status bar item.
    const status = await page.getAttribute('[id$="tvmls.status"]', 'aria-label');
    check('status bar item says the server is running', /tvmls server: running/.test(status || ''), status);
    console.log(`${passed} passed, 0 failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  } catch (e) {
    if (browser) {
      const shot = path.join(require('os').tmpdir(), 'tvmls-vscode-ui-failure.png');
      try {
        const [page] = browser.contexts()[0]?.pages() ?? [];
        if (page) {
          await page.screenshot({ path: shot });
          console.error(`screenshot of the failure: ${shot}`);
        }
      } catch { /* no page */ }
    }
    // The LSP traffic of the last seconds (hover, inlay and token requests left out).
    const traffic = cs.serverLog().split('\n').filter((l) => /^\[Trace/.test(l) &&
      !/textDocument\/(hover|inlayHint|semanticTokens|codeAction|documentSymbol|foldingRange|documentHighlight|documentLink)/.test(l));
    console.error(`# tvmls messages, last ${Math.min(traffic.length, 60)}:\n${traffic.slice(-60).join('\n')}`);
    console.error(`${passed} passed, 1 failed`);
    throw e;
  } finally {
    if (browser) await browser.close().catch(() => undefined);
    await cs.stop();
  }
}

if (SHOTS) fs.mkdirSync(SHOTS, { recursive: true });
h.runMain(main);
