// browser.mjs: the dashboard in a real browser -- Debian's Chromium,
// headless, driven by playwright-core -- against `mytriton serve`.
//
//   node browser.mjs --work DIR --mytriton EXE --repo DIR --out DIR
//
// It loads the page, opens a tutorial-style matmul without a `# mytriton:`
// comment and checks the signature, constexpr and autotune-config inputs
// the discovery pre-fills (and where each says it came from), types a
// kernel with an error and checks the squiggle
// and the message at the right line, applies the quick fix and checks the
// SSA, clicks a source line and checks the SSA and CUDA lines that light up,
// runs the kernel on the interpreter (the real `mytriton worker`) and
// checks its outputs' values and its repro archive, and reopens
// the run from the history. Screenshots of each step (and of every stage
// view of examples/softmax.py, MLIR included) go to --out; docs/dashboard.md shows them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const { chromium } = await import(path.resolve(args.work, 'node_modules/playwright-core/index.mjs'));
fs.mkdirSync(args.out, { recursive: true });

let failures = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures++;
};

// ---- the server ------------------------------------------------------------------

const data = fs.mkdtempSync(path.join(os.tmpdir(), 'mytriton-browser-data-'));
const serveArgs = ['serve', 'examples', 'tests/lsp/fixtures/tutorial', '--port', '0', '--data', data, '--quiet'];
const server = spawn(args.mytriton, serveArgs, { cwd: args.repo, stdio: ['ignore', 'pipe', 'inherit'] });
const url = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = out.match(/mytriton dashboard: (\S+)/);
    if (m) resolve(m[1]);
  });
  server.on('exit', (code) => reject(new Error(`mytriton serve exited with ${code}`)));
  setTimeout(() => reject(new Error('mytriton serve printed no URL within 30 s')), 30000);
});
console.log(`server: ${url}`);

// ---- the browser -----------------------------------------------------------------

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'mytriton-browser-profile-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: args.chromium || '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1600, height: 940 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = context.pages()[0] || (await context.newPage());
const problems = [];
page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && problems.push(`console error: ${m.text()}`));
page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()} for ${r.request().method()} ${r.url()}`));
const shot = async (name) => {
  await page.screenshot({ path: path.join(args.out, `${name}.png`) });
  console.log(`     screenshot ${name}.png`);
};
const paneText = (i) => page.locator(`.pane[data-pane="${i}"] .pane-body`).innerText();
const pickStage = async (i, stage) => {
  await page.selectOption(`.pane[data-pane="${i}"] .stage-select`, stage);
  await page.waitForFunction(([i, stage]) => {
    const body = document.querySelector(`.pane[data-pane="${i}"] .pane-body`);
    return body && body.children.length > 0 && document.querySelector(`.pane[data-pane="${i}"] .stage-select`).value === stage;
  }, [i, stage]);
  await page.waitForTimeout(400);
};

async function setEditor(text) {
  await page.click('.cm-content');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

try {
  // 1. The page, with the examples loaded: every stage of softmax.
  await page.goto(`${url.replace(/\?token=.*/, '')}#file=examples/softmax.py&kernel=softmax_kernel`);
  await page.waitForSelector('body[data-ready="1"]', { timeout: 30000 });
  await page.waitForFunction(() => document.querySelector('#status')?.classList.contains('ok'), null, { timeout: 30000 });
  check((await page.locator('#picker option').count()) > 5, 'the picker lists the example kernels');
  check((await paneText(0)).includes('program_id'), 'the SSA pane shows softmax');
  check((await paneText(1)).includes('__global__'), 'the CUDA pane shows softmax');
  check((await page.locator('.cm-line.src-line').count()) > 5, 'source lines carry their colours');
  await shot('softmax-ssa-cuda');
  for (const [a, b, name] of [['expr', 'ssa-raw', 'softmax-expr-ssa-raw'], ['passes', 'layout', 'softmax-passes-layout'], ['ptx', 'sass', 'softmax-ptx-sass']]) {
    await pickStage(0, a);
    await pickStage(1, b);
    if (a === 'ptx') await page.waitForFunction(() => document.querySelector('.pane[data-pane="0"] .pane-body').innerText.includes('.entry'), null, { timeout: 60000 });
    await shot(name);
  }
  check((await paneText(0)).includes('.visible .entry softmax_kernel'), 'the PTX pane shows NVRTC\'s PTX');
  check(/nvdisasm|cuobjdump/.test(await paneText(1)), 'the SASS pane shows SASS or says how to enable it');
  await pickStage(0, 'mlir');
  await pickStage(1, 'mlir-llvm');
  await page.waitForFunction(() => /gpu\.module|MLIR backend/.test(document.querySelector('.pane[data-pane="1"] .pane-body').innerText), null, { timeout: 60000 });
  const mlirText = await paneText(0);
  check(mlirText.includes('gpu.module') ? (await page.locator('.pane[data-pane="0"] .code-line.linked-line').count()) > 5 : mlirText.includes('docs/mlir-backend.md'),
    'the MLIR panes show linked MLIR, or say how to enable the backend');
  await shot('softmax-mlir');
  await pickStage(0, 'ssa');
  await pickStage(1, 'cuda');

  // 2. A kernel with an error: squiggle and message at the right line.
  await page.selectOption('#picker', 'untitled.py::');
  const broken = [
    'import triton',
    'import triton.language as tl',
    '',
    '',
    '@triton.jit',
    'def scale_kernel(x, out, n, BLOCK: tl.constexpr):',
    '    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)',
    '    mask = offs < n & offs >= 0',
    '    values = tl.load(x + offs, mask=mask, other=0.0)',
    '    tl.store(out + offs, values * 2.0, mask=mask)',
    '',
  ].join('\n');
  await page.fill('#constexprs input[data-name="BLOCK"]', '128').catch(() => {});
  await setEditor(broken);
  await page.waitForSelector('.cm-lintRange-error', { timeout: 30000 });
  const squiggleLine = await page.evaluate(() => {
    const mark = document.querySelector('.cm-lintRange-error');
    const line = mark.closest('.cm-line');
    return [...line.parentElement.querySelectorAll(':scope > .cm-line')].indexOf(line) + 1;
  });
  check(squiggleLine === 8, `the squiggle is on line 8 (found ${squiggleLine})`);
  const diag = page.locator('.diag.error').first();
  const diagText = await diag.innerText();
  check(diagText.startsWith('8:') && diagText.includes('E0207') && diagText.includes('parentheses'), `the message names line 8 and E0207: ${diagText.replace(/\s+/g, ' ')}`);
  check((await page.locator('.diag.error button.fix').count()) > 0, 'the diagnostic offers a quick fix');
  await shot('error-squiggle');

  // 3. Fix it (the quick fix) and see the SSA.
  await page.locator('.diag.error button.fix').first().click();
  await page.waitForFunction(() => !document.querySelector('.diag.error') && document.querySelector('#status').classList.contains('ok'), null, { timeout: 30000 });
  const fixed = await page.evaluate(() => document.querySelector('.cm-content').innerText);
  check(fixed.includes('(offs < n) & (offs >= 0)'), 'the quick fix added the parentheses');
  await page.waitForFunction(() => document.querySelector('.pane[data-pane="0"] .pane-body').innerText.includes('load'));
  check((await paneText(0)).includes('program_id'), 'the fixed kernel\'s SSA is shown');
  await shot('fixed-ssa');

  // 4. Click a source line: its SSA and CUDA lines light up.
  const loadLine = page.locator('.cm-line', { hasText: 'values = tl.load' });
  await loadLine.click();
  await page.waitForSelector('.pane[data-pane="0"] .code-line.hot');
  const hotSsa = await page.locator('.pane[data-pane="0"] .code-line.hot').allInnerTexts();
  const hotCuda = await page.locator('.pane[data-pane="1"] .code-line.hot').allInnerTexts();
  check(hotSsa.some((t) => t.includes('= load')), `clicking line 9 lights its SSA load (${hotSsa.length} lines)`);
  check(hotCuda.some((t) => t.includes('x[')), `clicking line 9 lights its CUDA load (${hotCuda.length} lines)`);
  await page.locator('.pane[data-pane="1"] .code-line.linked-line', { hasText: 'out[' }).first().hover();
  await page.waitForSelector('.cm-content .linked');
  const linked = await page.locator('.cm-content .linked').first().innerText();
  check(linked.includes('tl.store'), `hovering the CUDA store lights the source's tl.store (${linked})`);
  await shot('linked-lines');

  // 5. Run it on the interpreter and see the outputs.
  await page.click('#tabs button[data-tab="launch"]');
  await page.fill('tr[data-arg="n"] input', '1000');
  await page.locator('tr[data-arg="n"] input').dispatchEvent('change');
  await page.fill('tr[data-arg="x"] input.shape', '1000');
  await page.locator('tr[data-arg="x"] input.shape').dispatchEvent('change');
  await page.selectOption('tr[data-arg="x"] select.init', 'arange');
  await page.fill('tr[data-arg="out"] input.shape', '1000');
  await page.locator('tr[data-arg="out"] input.shape').dispatchEvent('change');
  await page.selectOption('tr[data-arg="out"] select.init', 'zeros');
  await shot('launch-panel');
  await page.click('button.run');
  await page.waitForSelector('table.outputs tr[data-array="out"]', { timeout: 120000 });
  const status = await page.locator('.run-head .badge').innerText();
  check(status === 'ok', `the run finished: ${status}`);
  const outRow = await page.locator('table.outputs tr[data-array="out"]').innerText();
  check(/float32\[1000\]/.test(outRow), `the outputs table shows out: ${outRow.replace(/\s+/g, ' ')}`);
  // out = 2 * arange(1000): its sum is 2 * 499500, its first values 0, 2, 4.
  check(outRow.includes('999000') && outRow.includes('[0.0, 2.0, 4.0,'), `out sums to 999000 and starts 0, 2, 4: ${outRow.replace(/\s+/g, ' ')}`);
  check((await page.locator('table.outputs a.download').count()) >= 2, 'each output has a .npy download');
  const repro = await page.evaluate(async () => {
    const r = await fetch(document.querySelector('.run-head a.repro').href);
    const bytes = new Uint8Array(await r.arrayBuffer());
    return { status: r.status, type: r.headers.get('content-type'), magic: String.fromCharCode(...bytes.slice(257, 262)), size: bytes.length };
  });
  check(repro.status === 200 && repro.type === 'application/x-tar' && repro.magic === 'ustar',
    `the run's repro archive link gives a tar archive (${repro.status}, ${repro.type}, ${repro.size} bytes)`);
  await shot('run-results');

  // 6. Open the run from the history: source and results come back.
  await setEditor('# something else entirely\n');
  await page.click('#tabs button[data-tab="history"]');
  await page.waitForSelector('tr.run-row');
  await shot('history');
  await page.locator('tr.run-row').first().click();
  await page.waitForSelector('#tab-results.active table.outputs tr[data-array="out"]');
  await page.waitForFunction(() => document.querySelector('.cm-content').innerText.includes('def scale_kernel'));
  check((await page.evaluate(() => document.querySelector('.cm-content').innerText)).includes('(offs < n) & (offs >= 0)'), 'the history brings back the source that ran');
  check((await page.locator('tr[data-arg="n"] input').inputValue()) === '1000', 'the history brings back the launch');
  await shot('history-reopened');

  // 7. A tutorial-style matmul without a `# mytriton:` comment: the
  // signature and the constexprs come from its launch and its autotune
  // configs (the discovery), each saying where from, and it compiles.
  await page.goto(`${url.replace(/\?token=.*/, '')}#file=tests/lsp/fixtures/tutorial/matmul.py&kernel=matmul_kernel`);
  await page.waitForFunction(() => document.querySelector('#constexprs input[data-name="BLOCK_SIZE_M"]')?.value === '128'
    && document.querySelector('#status')?.classList.contains('ok'), null, { timeout: 30000 });
  const prefilled = await page.evaluate(() => {
    const input = (n) => document.querySelector(`#constexprs input[data-name="${n}"]`);
    const origin = (n) => document.querySelector(`#constexprs small.origin[data-name="${n}"]`);
    return {
      m: input('BLOCK_SIZE_M').value, mDiscovered: input('BLOCK_SIZE_M').classList.contains('discovered'),
      mOrigin: origin('BLOCK_SIZE_M').innerText, mNote: origin('BLOCK_SIZE_M').title,
      act: input('ACTIVATION').value, actOrigin: origin('ACTIVATION').innerText, actNote: origin('ACTIVATION').title,
      sig: document.querySelector('#signature').value, sigOrigin: document.querySelector('#signature-origin').innerText,
      sigNote: document.querySelector('#signature').title,
      configs: [...document.querySelectorAll('#config option')].map((o) => o.innerText),
      configShown: !document.querySelector('#config').closest('label').hidden,
      needs: [...document.querySelectorAll('.diag')].filter((d) => d.innerText.includes('I0901')).length,
    };
  });
  check(prefilled.m === '128' && prefilled.mDiscovered && prefilled.mOrigin === 'config 1/3' && prefilled.mNote.includes('autotune config 1 of 3: BLOCK_SIZE_M=128'),
    `BLOCK_SIZE_M is pre-filled from autotune config 1 of 3 (${prefilled.m}, ${prefilled.mOrigin}: ${prefilled.mNote})`);
  check(prefilled.act === "''" && prefilled.actOrigin === 'launch, line 88' && prefilled.actNote.includes('the launch at line 88'),
    `ACTIVATION is pre-filled from the launch at line 88 (${prefilled.act}, ${prefilled.actOrigin}: ${prefilled.actNote})`);
  check(prefilled.sig.startsWith('*fp16,*fp16,*fp16,i32,') && prefilled.sigOrigin === 'launch, line 88' && prefilled.sigNote.includes('a_ptr: *fp16 (from the launch at line 88: a (a tensor of fp16))'),
    `the signature is pre-filled from the launch (${prefilled.sig}, ${prefilled.sigOrigin})`);
  check(prefilled.configShown && prefilled.configs.length === 3 && prefilled.configs[1].startsWith('2 of 3: BLOCK_SIZE_M=64'),
    `the three autotune configs are offered (${prefilled.configs.join(' | ')})`);
  check(prefilled.needs === 0, 'no constexpr is left without a value (no I0901)');
  await page.click('#tabs button[data-tab="launch"]');
  await page.waitForSelector('tr[data-arg="a_ptr"]');
  await shot('discovered-matmul');
  await page.selectOption('#config', '2');
  await page.waitForFunction(() => document.querySelector('#constexprs input[data-name="BLOCK_SIZE_M"]')?.value === '32'
    && document.querySelector('#status')?.classList.contains('ok'), null, { timeout: 30000 });
  const third = await page.evaluate(() => [document.querySelector('#constexprs small.origin[data-name="BLOCK_SIZE_N"]').innerText,
    document.querySelector('#status').innerText, location.hash]);
  check(third[0] === 'config 3/3' && third[1].includes(',32,32,32,8,') && third[2].includes('config=2'),
    `picking config 3 recompiles with its values (${third.join(' | ')})`);
} catch (e) {
  console.log(`FAIL ${e.stack || e}`);
  failures++;
  // What the page was showing: the status line and the last run as recorded.
  const said = await page.evaluate(() => [document.querySelector('#status')?.innerText,
    document.querySelector('.run-status')?.innerText, document.querySelector('#tab-results details.raw pre')?.textContent])
    .catch(() => []);
  for (const s of said) if (s) console.log(`     page: ${s.slice(0, 4000)}`);
  await shot('failure').catch(() => {});
}

for (const p of problems) console.log(`FAIL ${p}`);
failures += problems.length;
await context.close();
server.kill('SIGINT');
await new Promise((resolve) => server.on('exit', resolve));
fs.rmSync(profile, { recursive: true, force: true });
fs.rmSync(data, { recursive: true, force: true });
console.log(failures ? `${failures} check(s) failed` : 'all browser checks passed');
process.exit(failures ? 1 : 0);
