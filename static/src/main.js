// main.js: the dashboard page. It wires the editor, the stage panes, the
// launch panel and the run views to the server's JSON API:
//
//   - the address says what to open: #file=PATH&kernel=NAME (&sig=SIG,
//     &D.NAME=VALUE constexprs, &config=N autotune config), or #run=ID for
//     a run from the history -- the language server's "Open in dashboard"
//     lens opens such a URL;
//   - every edit recompiles (debounced; answers to older requests are
//     dropped), and the answer drives the squiggles, the stages, the line
//     colours and the launch panel;
//   - the signature and constexpr inputs show what the compile used: the
//     server's discovery (the `# mytriton:` comment, mytriton.json, the
//     kernel's launches, its autotune configs, defaults) unless the user
//     typed a value, each with where it came from; only typed values are
//     sent back, so the discovery follows the source as it is edited;
//   - a run is posted, followed through Server-Sent Events, and shown.
import './style.css';
import { get, post, follow, ApiError } from './api.js';
import { createEditor } from './editor.js';
import { Stages } from './stages.js';
import { LaunchPanel, wireSpec } from './launch.js';
import { renderRun } from './results.js';
import { ProfileView } from './profile.js';
import { HistoryView } from './history.js';

const $ = (sel) => document.querySelector(sel);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
};

const state = {
  info: null,
  path: 'untitled.py',
  kernel: null,
  kernels: [],
  specs: [],
  signature: '',     // typed by the user; '' = the discovered one
  defines: {},       // constexprs typed by the user (or from a launch spec beside the file)
  defineOrigin: {},  // NAME -> where a define came from when not typed ("the launch spec x.json")
  config: null,      // the autotune config picked (its index), null = the discovery's default (the first)
  discovery: null,   // the last compile's "discovery"
  lowering: 'fast',  // the compiler's default
  compileSeq: 0,
  lastDoc: null,
  run: null,
};

const nonce = document.querySelector('meta[name="csp-nonce"]')?.content;
let timer = null;
const editor = createEditor($('#editor'), {
  nonce,
  onChange: () => scheduleCompile(),
  onLine: (line, sticky) => stages.highlightSource(line, sticky),
});
const stages = new Stages($('#right'), {
  defaults: ['ssa', 'cuda'],
  onPick: () => scheduleCompile(0),
  onHoverOrigin: (origin, sticky) => {
    if (!origin) {
      editor.highlight([]);
      return;
    }
    const ranges = [{ from: origin.span.from, to: origin.span.to }];
    for (const c of origin.calls || []) ranges.push({ from: c.from, to: c.to, cls: 'linked-call' });
    editor.highlight(ranges);
    if (sticky) editor.scrollToLine(origin.span.line);
  },
});
const launch = new LaunchPanel($('#tab-launch'), { onRun: (spec, options) => startRun(spec, options) });
const profile = new ProfileView($('#tab-profile'), {
  launch: () => ({ request: kernelRequest(), spec: wireSpec(launch.currentSpec()), options: launch.options }),
});
const historyView = new HistoryView($('#tab-history'), { onOpen: (id) => openRun(id) });

function setStatus(text, cls) {
  const s = $('#status');
  s.textContent = text;
  s.className = cls || '';
}

function showTab(name) {
  for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('active', b.dataset.tab === name);
  for (const t of document.querySelectorAll('.tab')) t.classList.toggle('active', t.id === `tab-${name}`);
  if (name === 'history') historyView.refresh();
}
for (const b of document.querySelectorAll('#tabs button')) b.addEventListener('click', () => showTab(b.dataset.tab));

// ---- what to compile ----------------------------------------------------------------

function kernelRequest() {
  const req = { source: editor.text(), path: state.path };
  // A kernel renamed or deleted in the editor is not asked for: the
  // server then takes the file's only kernel, or says which to pick.
  if (state.kernel && new RegExp(`\\bdef\\s+${state.kernel}\\s*\\(`).test(req.source)) req.kernel = state.kernel;
  if (state.signature.trim()) req.signature = state.signature.trim();
  if (state.config !== null) req.config = state.config;
  req.lowering = state.lowering;
  const defines = Object.fromEntries(Object.entries(state.defines).filter(([, v]) => String(v).trim() !== ''));
  if (Object.keys(defines).length) req.defines = defines;
  return req;
}

function scheduleCompile(delay = 250) {
  clearTimeout(timer);
  timer = setTimeout(compile, delay);
}

async function compile() {
  const seq = ++state.compileSeq;
  const req = { ...kernelRequest(), ...stages.wanted() };
  setStatus('compiling...', 'busy');
  let doc;
  try {
    doc = await post('/api/compile', req);
  } catch (e) {
    if (seq !== state.compileSeq) return;
    setStatus(e.message, 'error');
    if (e instanceof ApiError && e.code === 'unknown_kernel') {
      state.kernel = null;  // renamed or removed in the editor: compile the file's kernel instead
      scheduleCompile(0);
    }
    return;
  }
  if (seq !== state.compileSeq) return;
  state.lastDoc = doc;
  state.kernels = doc.kernels || state.kernels;
  if (!state.kernel && doc.kernel) state.kernel = doc.kernel;
  editor.setDiagnostics(doc.diagnostics || []);
  renderDiagnostics(doc.diagnostics || []);
  stages.show(doc);
  editor.setColours(stages.sourceLines());
  if (doc.params) launch.setParams(doc.params);
  if (doc.discovery) state.discovery = doc.discovery;
  renderConstexprs(doc);
  renderSignature(doc);
  renderConfigs();
  const errors = (doc.diagnostics || []).filter((d) => d.severity === 'error').length;
  setStatus(errors ? `${errors} error${errors > 1 ? 's' : ''}` : `${doc.kernel} ${doc.signature} · ${doc.timing.compile_ms.toFixed(1)} ms`, errors ? 'error' : 'ok');
}

function renderDiagnostics(diags) {
  const box = $('#diagnostics');
  box.replaceChildren();
  for (const d of diags) {
    const row = el('div', `diag ${d.severity}`);
    row.dataset.line = d.range?.start?.line ?? '';
    const where = d.range?.start ? `${d.range.start.line}:${d.range.start.col}` : '';
    row.append(el('span', 'where', where), el('span', 'sev', d.severity), el('span', 'msg', d.message));
    if (d.code) row.append(el('span', 'code', d.code));
    for (const f of d.fixes || []) {
      const b = el('button', 'fix', f.title);
      b.addEventListener('click', (e) => {
        e.stopPropagation();
        editor.applyEdits(f.edits);
      });
      row.append(b);
    }
    row.addEventListener('click', () => d.range && editor.scrollToLine(d.range.start.line));
    box.append(row);
  }
}

// Where a value came from, shortly (the note beside an input) and in full
// (its tooltip): the discovery's words, or what the page itself knows.
const ORIGIN_LABEL = {
  signature: 'signature', override: 'set here', comment: '# mytriton:', given: 'mytriton.json',
  launch: 'launch', autotune: 'autotune', heuristics: 'heuristics', default: 'default', fallback: 'mytriton.json',
  none: 'needed',
};

function foundParam(name) {
  const d = state.discovery;
  return d && d.kernel === (state.lastDoc?.kernel ?? d.kernel) ? (d.params || []).find((p) => p.name === name) : null;
}

function originOf(name, constexpr) {
  if (state.signature.trim()) return { label: 'signature', note: 'from the signature typed here' };
  if (constexpr && state.defines[name] !== undefined && String(state.defines[name]).trim() !== '') {
    const from = state.defineOrigin[name];
    return from ? { label: 'spec', note: `from ${from}` } : { label: 'set here', note: 'typed here' };
  }
  const f = foundParam(name);
  if (!f) return { label: '', note: '' };
  let label = ORIGIN_LABEL[f.origin] || f.origin;
  const at = state.discovery.launch;
  if (f.origin === 'launch' && at?.line) label = `launch, ${at.file ? `${at.file.split('/').pop()}:` : 'line '}${at.line}`;
  if (f.origin === 'autotune' && state.discovery.nconfigs) label = `config ${state.discovery.config + 1}/${state.discovery.nconfigs}`;
  if (f.origin === 'none' && !constexpr) label = 'inferred';
  return { label, note: f.note || '' };
}

function setOrigin(box, o) {
  box.textContent = o.label;
  box.title = o.note;
  box.hidden = !o.label;
}

// Inputs for the kernel's constexprs, showing the values the compile used
// (typed ones, else the discovery's) and where each came from.
function renderConstexprs(doc) {
  const box = $('#constexprs');
  const info = (doc.kernels || []).find((k) => k.name === doc.kernel);
  const names = (info?.params || []).filter((p) => p.constexpr).map((p) => p.name);
  const used = Object.fromEntries((doc.params || []).filter((p) => p.value).map((p) => [p.name, p.value]));
  for (const p of state.discovery?.kernel === doc.kernel ? state.discovery.params : [])
    if (p.constexpr && p.value && used[p.name] === undefined) used[p.name] = p.value;
  const same = box.dataset.names === names.join(',');
  if (!same) {
    box.replaceChildren();
    box.dataset.names = names.join(',');
    for (const n of names) {
      const inp = el('input');
      inp.size = 6;
      inp.dataset.name = n;
      inp.addEventListener('change', () => {
        state.defines[n] = inp.value;
        delete state.defineOrigin[n];
        updateHash();
        scheduleCompile(0);
      });
      const lab = el('label', 'constexpr', `${n} `);
      const origin = el('small', 'origin');
      origin.dataset.name = n;
      lab.append(inp, origin);
      box.append(lab);
    }
  }
  for (const inp of box.querySelectorAll('input')) {
    const n = inp.dataset.name;
    const typed = state.defines[n] !== undefined && String(state.defines[n]).trim() !== '';
    if (document.activeElement !== inp) inp.value = typed ? state.defines[n] : used[n] ?? '';
    inp.placeholder = used[n] ?? 'needed';
    inp.classList.toggle('discovered', !typed && used[n] !== undefined);
    const o = originOf(n, true);
    inp.title = o.note;
    setOrigin(box.querySelector(`small.origin[data-name="${n}"]`), o);
  }
}

// The signature input: the one typed, else the one the compile used, with
// where the runtime parameters' types came from.
function renderSignature(doc) {
  const inp = $('#signature');
  const typed = state.signature.trim() !== '';
  if (!typed && document.activeElement !== inp && doc.signature) inp.value = doc.signature;
  inp.classList.toggle('discovered', !typed);
  const runtime = (state.discovery?.params || []).filter((p) => !p.constexpr);
  const lines = typed ? ['typed here'] : runtime.map((p) => `${p.name}: ${p.type || 'inferred'} (${p.note || p.origin})`);
  inp.title = lines.join('\n');
  const labels = typed ? ['set here'] : [...new Set(runtime.map((p) => originOf(p.name, false).label).filter(Boolean))];
  setOrigin($('#signature-origin'), { label: labels.join(', '), note: lines.join('\n') });
}

// The autotune configs, when the kernel has several: a select.
function renderConfigs() {
  const d = state.discovery;
  const sel = $('#config');
  const configs = d && d.configs && d.configs.length > 1 && !state.signature.trim() ? d.configs : [];
  sel.closest('label').hidden = !configs.length;
  const key = configs.map((c) => c.text).join('|');
  if (sel.dataset.key !== key) {
    sel.replaceChildren();
    sel.dataset.key = key;
    configs.forEach((c, i) => {
      const o = el('option', null, `${i + 1} of ${configs.length}: ${c.text || '?'}`);
      o.value = String(i);
      if (c.span?.line) o.title = `triton.Config at line ${c.span.line}`;
      sel.append(o);
    });
  }
  if (configs.length) sel.value = String(d.config ?? 0);
}

$('#config').addEventListener('change', (e) => {
  state.config = Number(e.target.value);
  updateHash();
  scheduleCompile(0);
});

$('#signature').addEventListener('change', (e) => {
  state.signature = e.target.value;
  updateHash();
  scheduleCompile(0);
});
$('#lowering').addEventListener('change', (e) => {
  state.lowering = e.target.value;
  updateHash();
  scheduleCompile(0);
});

// ---- files and kernels -----------------------------------------------------------------

async function loadPicker() {
  const picker = $('#picker');
  const { files } = await get('/api/files');
  picker.replaceChildren();
  const scratch = el('option', null, 'untitled.py (scratch)');
  scratch.value = 'untitled.py::';
  picker.append(scratch);
  for (const f of files) {
    const g = el('optgroup');
    g.label = f.path;
    for (const k of f.kernels) {
      const o = el('option', null, `${k.name}${k.helper ? ' (helper)' : ''}`);
      o.value = `${f.path}::${k.name}`;
      g.append(o);
    }
    picker.append(g);
  }
  picker.addEventListener('change', () => {
    const [path, kernel] = picker.value.split('::');
    if (path === 'untitled.py') {
      state.path = path;
      state.kernel = null;
      state.specs = [];
      state.config = null;
      state.discovery = null;
      state.defineOrigin = {};
      launch.setSpec(null);
      updateHash();
      scheduleCompile(0);
      return;
    }
    openFile(path, kernel);
  });
}

function selectInPicker() {
  const v = `${state.path}::${state.kernel || ''}`;
  const picker = $('#picker');
  if ([...picker.options].some((o) => o.value === v)) picker.value = v;
}

function updateHash() {
  const h = new URLSearchParams();
  h.set('file', state.path);
  if (state.kernel) h.set('kernel', state.kernel);
  if (state.signature) h.set('sig', state.signature);
  if (state.config !== null) h.set('config', String(state.config));
  if (state.lowering !== 'fast') h.set('lowering', state.lowering);
  for (const [k, v] of Object.entries(state.defines)) if (v !== '' && !state.defineOrigin[k]) h.set(`D.${k}`, v);
  history.replaceState(null, '', `#${h.toString()}`);
}

async function openFile(path, kernel, { signature = '', defines = {}, config = null, keepLaunch = false } = {}) {
  let f;
  try {
    f = await get(`/api/file?path=${encodeURIComponent(path)}`);
  } catch (e) {
    setStatus(e.message, 'error');
    return;
  }
  state.path = f.path;
  state.kernels = f.kernels;
  const entry = f.kernels.filter((k) => !k.helper);
  state.kernel = kernel || (entry.length === 1 ? entry[0].name : entry[0]?.name) || null;
  state.signature = signature;
  state.defines = { ...defines };
  state.defineOrigin = {};
  state.config = config;
  state.discovery = null;
  state.specs = f.specs || [];
  $('#signature').value = signature;
  $('#constexprs').dataset.names = '';
  editor.setText(f.source);
  selectInPicker();
  updateHash();
  if (!keepLaunch) {
    const found = state.specs.find((s) => s.kernel === state.kernel) || null;
    const spec = found ? JSON.parse(JSON.stringify(found.spec)) : null;
    // The header's constexpr inputs are the one place constexprs are set.
    if (spec?.constexprs && !Object.keys(defines).length)
      for (const [k, v] of Object.entries(spec.constexprs)) {
        state.defines[k] = v === true ? 'True' : v === false ? 'False' : String(v);
        state.defineOrigin[k] = `the launch spec ${found.path}`;
      }
    if (spec) delete spec.constexprs;
    launch.setSpec(spec);
  }
  scheduleCompile(0);
}

// ---- runs --------------------------------------------------------------------------------

async function startRun(spec, options) {
  const body = { ...kernelRequest(), spec: wireSpec(spec), backend: options.backend, compare: options.compare, profile: options.profile };
  if (options.backend === 'cuda') body.device = options.device;
  launch.setRunStatus('starting...', 'busy');
  let r;
  try {
    r = await post('/api/runs', body);
  } catch (e) {
    launch.setRunStatus(e.field ? `${e.field}: ${e.message}` : e.message, 'error');
    if (e.doc?.diagnostics) renderDiagnostics(e.doc.diagnostics);
    return;
  }
  const end = await follow(r.id, (name, data) => {
    if (name === 'queued') launch.setRunStatus(data.position ? `queued (${data.position} ahead)` : 'queued', 'busy');
    else if (name === 'started') launch.setRunStatus(`running on ${data.worker}`, 'busy');
    else if (name === 'progress') launch.setRunStatus(data.message || data.phase || 'running', 'busy');
  });
  launch.setRunStatus(`run ${r.id}: ${end.status}${end.error ? ` (${end.error.split('\n')[0]})` : ''}`, end.status === 'ok' ? 'ok' : 'error');
  await showRun(r.id);
}

async function showRun(id) {
  const run = await get(`/api/runs/${id}`);
  state.run = run;
  renderRun($('#tab-results'), run);
  profile.show(run);
  showTab('results');
}

async function openRun(id) {
  const run = await get(`/api/runs/${id}`);
  const req = run.request || {};
  const known = run.path !== 'untitled.py' && [...$('#picker').options].some((o) => o.value.startsWith(`${run.path}::`));
  if (known) {
    await openFile(run.path, run.kernel, { signature: req.signature || '', defines: req.defines || {}, config: req.config ?? null, keepLaunch: true });
  } else {
    state.path = run.path || 'untitled.py';
    state.kernel = run.kernel;
  }
  if (editor.text() !== run.source) editor.setText(run.source);
  launch.setSpec(req.spec, { backend: run.backend, device: req.device ?? 0, compare: !!req.compare, profile: req.profile || 0 });
  scheduleCompile(0);
  state.run = run;
  renderRun($('#tab-results'), run);
  profile.show(run);
  showTab('results');
}

// ---- start -------------------------------------------------------------------------------

async function route() {
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.get('run')) return openRun(Number(h.get('run')));
  const defines = {};
  for (const [k, v] of h) if (k.startsWith('D.')) defines[k.slice(2)] = v;
  state.lowering = h.get('lowering') === 'seed' ? 'seed' : 'fast';
  $('#lowering').value = state.lowering;
  const config = /^\d+$/.test(h.get('config') || '') ? Number(h.get('config')) : null;
  if (h.get('file')) return openFile(h.get('file'), h.get('kernel'), { signature: h.get('sig') || '', defines, config });
  const first = [...$('#picker').options].find((o) => o.value !== 'untitled.py::');
  if (first) {
    const [path, kernel] = first.value.split('::');
    return openFile(path, kernel);
  }
  editor.setText('import triton\nimport triton.language as tl\n\n\n@triton.jit\ndef kernel(x, out, n, BLOCK: tl.constexpr):\n    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n    mask = offs < n\n    tl.store(out + offs, tl.load(x + offs, mask=mask), mask=mask)\n');
}

async function start() {
  try {
    state.info = await get('/api/info');
  } catch (e) {
    setStatus(e.status === 401 ? 'this dashboard needs its token: open the URL `mytriton serve` printed' : e.message, 'error');
    return;
  }
  launch.setInfo(state.info);
  profile.info = state.info;
  if (state.info.backends.cuda.state === 'probing')
    setTimeout(async () => launch.setInfo((state.info = await get('/api/info'))), 3000);
  await loadPicker();
  window.addEventListener('hashchange', () => route());
  await route();
  document.body.dataset.ready = '1';
}

start();
