// launch.js: the launch panel, generated from the compiled signature.
//
// One row per runtime parameter: an array (dtype, shape, and an init
// recipe, or an uploaded .npy) for a pointer, a value for a scalar; then
// the grid, the backend (interpreter, or a GPU when the server found one),
// "compare with the interpreter", the number of profiled launches, the
// tolerance, and the spec's optional bytes/FLOPs of docs/launch-spec.md
// (left empty, the compiler counts them; given, they override its totals
// in the profile). The panel's state
// is a launch spec; runs, the history and the examples' spec files all
// speak that format, so a run reopened from the history fills the panel
// back exactly.
import { upload } from './api.js';

const INITS = ['zeros', 'ones', 'arange', 'constant', 'uniform', 'normal'];
const INIT_PARAMS = { constant: ['value'], uniform: ['low', 'high', 'seed'], normal: ['mean', 'std', 'seed'] };

const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (v !== undefined && v !== null) e.setAttribute(k, v);
  }
  e.append(...kids);
  return e;
};

// A scalar's text as a spec value: integers stay integers, floats floats.
function scalarValue(type, text) {
  const t = text.trim();
  if (type === 'i1') return t === 'true' || t === 'True' || t === '1';
  if (['nan', 'inf', '-inf'].includes(t)) return t;
  const n = Number(t);
  return t === '' || Number.isNaN(n) ? t : n;
}

// "cdiv(n, BLOCK), 4" -> ["cdiv(n, BLOCK)", "4"]: commas inside parentheses stay.
function splitTopLevel(text) {
  const parts = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
      continue;
    }
    if (ch === '(' || ch === '[') depth++;
    if (ch === ')' || ch === ']') depth--;
    cur += ch;
  }
  parts.push(cur);
  return parts.map((p) => p.trim()).filter(Boolean);
}

function defaultGrid(params) {
  const n = params.find((p) => p.type && !p.type.startsWith('*') && p.type.startsWith('i') && p.type !== 'i1');
  const block = params.find((p) => p.value && /BLOCK/i.test(p.name));
  return n && block ? `cdiv(${n.name}, ${block.name})` : '1';
}

export class LaunchPanel {
  constructor(root, { onRun }) {
    this.root = root;
    this.onRun = onRun;
    this.info = null;
    this.params = [];
    this.spec = { grid: [], args: {} };
    this.gridAuto = true;       // the grid is the panel's default, not one given
    this.options = { backend: 'interp', device: 0, compare: false, profile: 0 };
  }

  setInfo(info) {
    this.info = info;
    this.render();
  }

  // The compiled parameters changed: keep the values of the names that stay.
  setParams(params) {
    const same = JSON.stringify(params) === JSON.stringify(this.params);
    this.params = params || [];
    if (same) return;
    // A grid the panel chose follows the parameters (another kernel's
    // cdiv(n_cols, BLOCK) would name a parameter this one lacks).
    if (this.gridAuto) this.spec.grid = [];
    this.render();
  }

  // Fill the panel from a spec (an example's spec file, a run from the history).
  setSpec(spec, options) {
    this.spec = JSON.parse(JSON.stringify(spec || { grid: [], args: {} }));
    this.gridAuto = !this.spec.grid?.length;
    if (!this.spec.args) this.spec.args = {};
    delete this.spec.source;
    delete this.spec.kernel;
    delete this.spec.signature;
    if (options) this.options = { ...this.options, ...options };
    this.render();
  }

  dtypeForType(type) {
    const sig = type.replace(/^\*/, '');
    const d = (this.info?.dtypes || []).find((x) => x.sig === sig);
    return d ? d.name : 'float32';
  }

  arrayDefaults(p, index) {
    return { dtype: this.dtypeForType(p.type), shape: [1024], init: 'uniform', low: -1, high: 1, seed: index + 1 };
  }

  // The spec as the run request sends it: only the current parameters.
  currentSpec() {
    const spec = { ...this.spec, args: {} };
    for (const p of this.params) {
      if (!p.type) continue;
      if (this.spec.args[p.name] !== undefined) spec.args[p.name] = this.spec.args[p.name];
    }
    for (const k of ['bytes', 'flops']) if (spec[k] === '' || spec[k] == null) delete spec[k];
    if (spec.constexprs && !Object.keys(spec.constexprs).length) delete spec.constexprs;
    return spec;
  }

  render() {
    const root = this.root;
    root.replaceChildren();
    const runtime = this.params.filter((p) => p.type);
    if (!this.params.length) {
      root.append(el('p', { class: 'hint', text: 'Compile a kernel to launch it: its signature gives the arguments.' }));
      return;
    }
    const table = el('table', { class: 'launch' });
    table.append(el('tr', {}, el('th', { text: 'argument' }), el('th', { text: 'type' }), el('th', { text: 'value' })));
    runtime.forEach((p, i) => {
      if (this.spec.args[p.name] === undefined)
        this.spec.args[p.name] = p.type.startsWith('*') ? this.arrayDefaults(p, i) : p.type === 'i1' ? false : p.type.startsWith('i') ? 1024 : 1.0;
      const cell = el('td');
      if (p.type.startsWith('*')) this.arrayEditor(cell, p);
      else this.scalarEditor(cell, p);
      table.append(el('tr', { 'data-arg': p.name }, el('td', { class: 'name', text: p.name }), el('td', { class: 'type', text: p.type }), cell));
    });
    root.append(table);
    for (const p of this.params.filter((q) => q.value))
      root.append(el('span', { class: 'specialised', text: `${p.name} = ${p.value}` }));

    if (!this.spec.grid || !this.spec.grid.length) {
      this.spec.grid = [defaultGrid(this.params)];
      this.gridAuto = true;
    }
    const grid = el('input', { class: 'grid', size: 30, spellcheck: 'false', value: this.spec.grid.join(', ') });
    grid.addEventListener('change', () => {
      const typed = splitTopLevel(grid.value).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
      if (JSON.stringify(typed) !== JSON.stringify(this.spec.grid)) this.gridAuto = false;
      this.spec.grid = typed;
    });
    const row = el('div', { class: 'launch-row' }, el('label', { text: 'grid ' }, grid));
    const backend = el('select', { class: 'backend' });
    backend.append(el('option', { value: 'interp', text: 'CPU interpreter' }));
    const cuda = this.info?.backends?.cuda;
    const gpus = cuda?.devices || [];
    gpus.forEach((d, i) => backend.append(el('option', { value: `cuda:${i}`, text: `GPU ${i}: ${d.name}` })));
    if (!gpus.length) {
      const o = el('option', { value: 'cuda:0', text: cuda?.state === 'probing' ? 'GPU (probing...)' : 'GPU (none here)' });
      o.disabled = true;
      backend.append(o);
    }
    backend.value = this.options.backend === 'cuda' ? `cuda:${this.options.device}` : 'interp';
    const compare = el('input', { type: 'checkbox', class: 'compare' });
    compare.checked = this.options.compare;
    const profile = el('input', { type: 'number', class: 'profile', min: 0, max: 100000, value: this.options.profile, style: undefined });
    const gpuOnly = el('span', { class: 'gpu-only' }, el('label', {}, compare, ' compare with the interpreter'), el('label', { text: ' profile ' }, profile, ' launches'));
    const sync = () => {
      const [b, d] = backend.value.split(':');
      this.options.backend = b;
      this.options.device = Number(d || 0);
      this.options.compare = compare.checked;
      this.options.profile = Number(profile.value || 0);
      gpuOnly.classList.toggle('disabled', b !== 'cuda');
    };
    for (const c of [backend, compare, profile]) c.addEventListener('change', sync);
    sync();
    if (!gpus.length && cuda?.reason) backend.title = cuda.reason;
    row.append(el('label', { text: ' backend ' }, backend), gpuOnly);
    root.append(row);

    const extra = el('details', { class: 'launch-extra' }, el('summary', { text: 'tolerance, bytes and FLOPs override' }));
    for (const [k, hint] of [['bytes', "the compiler's count"], ['flops', "the compiler's count"]]) {
      const inp = el('input', { size: 18, placeholder: hint, value: this.spec[k] ?? '' });
      inp.addEventListener('change', () => {
        this.spec[k] = /^\d+$/.test(inp.value.trim()) ? Number(inp.value) : inp.value.trim();
      });
      extra.append(el('label', { text: ` ${k} ` }, inp));
    }
    for (const k of ['rtol', 'atol']) {
      const inp = el('input', { size: 8, value: this.spec.tolerance?.[k] ?? '' });
      inp.addEventListener('change', () => {
        this.spec.tolerance = { ...(this.spec.tolerance || {}) };
        if (inp.value.trim() === '') delete this.spec.tolerance[k];
        else this.spec.tolerance[k] = Number(inp.value);
        if (!Object.keys(this.spec.tolerance).length) delete this.spec.tolerance;
      });
      extra.append(el('label', { text: ` ${k} ` }, inp));
    }
    root.append(extra);
    const run = el('button', { class: 'run primary', text: 'Run' });
    run.addEventListener('click', () => {
      grid.dispatchEvent(new Event('change'));
      this.onRun(this.currentSpec(), { ...this.options });
    });
    root.append(el('div', { class: 'launch-row' }, run, el('span', { class: 'run-status' })));
  }

  setRunStatus(text, cls) {
    const s = this.root.querySelector('.run-status');
    if (s) {
      s.textContent = text;
      s.className = `run-status ${cls || ''}`;
    }
  }

  scalarEditor(cell, p) {
    const inp = el('input', { size: 12, value: String(this.spec.args[p.name]) });
    inp.addEventListener('change', () => {
      this.spec.args[p.name] = scalarValue(p.type, inp.value);
    });
    cell.append(inp);
  }

  arrayEditor(cell, p) {
    const a = this.spec.args[p.name];
    if (a.upload || a.npy) {
      const what = a.upload ? `uploaded ${a.dtype || ''}[${(a.shape || []).join(', ')}]` : `file ${a.npy}`;
      const clear = el('button', { text: 'use a generated array' });
      clear.addEventListener('click', () => {
        this.spec.args[p.name] = this.arrayDefaults(p, 0);
        this.render();
      });
      cell.append(el('span', { class: 'npy', text: what }), clear);
      return;
    }
    const dtype = el('select', { class: 'dtype' });
    for (const d of this.info?.dtypes || [])
      if (d.npy) dtype.append(el('option', { value: d.name, text: d.name }));
    dtype.value = a.dtype;
    const shape = el('input', { class: 'shape', size: 12, value: (a.shape || []).join(', '), title: 'shape, e.g. 1000 or 127, 513' });
    const init = el('select', { class: 'init' });
    for (const i of INITS) init.append(el('option', { value: i, text: i }));
    init.value = a.init || 'zeros';
    const params = el('span', { class: 'init-params' });
    const drawParams = () => {
      params.replaceChildren();
      for (const k of INIT_PARAMS[init.value] || []) {
        const inp = el('input', { size: 5, value: a[k] ?? '' });
        inp.addEventListener('change', () => {
          if (inp.value.trim() === '') delete a[k];
          else a[k] = scalarValue(k === 'seed' ? 'i64' : 'fp32', inp.value);
        });
        params.append(el('label', { text: ` ${k} ` }, inp));
      }
    };
    dtype.addEventListener('change', () => (a.dtype = dtype.value));
    shape.addEventListener('change', () => {
      a.shape = shape.value.split(/[,x ]+/).filter(Boolean).map(Number);
    });
    init.addEventListener('change', () => {
      for (const k of ['value', 'low', 'high', 'seed', 'mean', 'std']) if (!(INIT_PARAMS[init.value] || []).includes(k)) delete a[k];
      a.init = init.value;
      drawParams();
    });
    drawParams();
    const file = el('input', { type: 'file', accept: '.npy', class: 'npy-file', title: 'or upload a .npy file' });
    file.addEventListener('change', async () => {
      if (!file.files.length) return;
      try {
        const u = await upload(file.files[0]);
        this.spec.args[p.name] = { upload: u.upload, dtype: u.dtype, shape: u.shape };
      } catch (e) {
        alert(`upload failed: ${e.message}`);
      }
      this.render();
    });
    cell.append(dtype, ' [', shape, '] ', init, params, ' or ', file);
  }
}

// Uploaded arrays are sent as {"upload": ID} alone.
export function wireSpec(spec) {
  const out = JSON.parse(JSON.stringify(spec));
  for (const [k, v] of Object.entries(out.args || {})) if (v && v.upload) out.args[k] = { upload: v.upload };
  return out;
}
