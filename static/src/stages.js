// stages.js: the stage panes beside the editor.
//
// Two panes, each showing one view of the compiled kernel: the typed
// expression tree, SSA as lowered, SSA after each optimisation pass (with a
// diff to the SSA before it), optimised SSA, layouts, CUDA C++, the MLIR
// code generator's module (before and after MLIR's GPU lowering), PTX and
// SASS. Every line the compiler linked to the source carries that link
// (its source range and the helper calls it was inlined through, from the
// compile document's "lines"); it is tinted with its source line's colour,
// and hovering or clicking it lights up the source range in the editor and
// the lines of the same origin in both panes. The editor does the same the
// other way round through highlightSource().
import { colourOf } from './editor.js';
import { occupancyText } from './results.js';

export const STAGES = [
  ['expr', 'expression tree'],
  ['ssa-raw', 'SSA (lowered)'],
  ['passes', 'SSA after each pass'],
  ['ssa', 'SSA (optimised)'],
  ['layout', 'layouts (seed lowering)'],
  ['kernel', 'kernel layer (fast lowering)'],
  ['cuda', 'CUDA C++'],
  ['mlir', 'MLIR (gpu, arith, scf)'],
  ['mlir-llvm', 'MLIR (llvm, nvvm)'],
  ['ptx', 'PTX (NVRTC)'],
  ['sass', 'SASS'],
];

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

// Does a line origin belong to source line `line`? Its own range, or a
// helper call it was inlined through.
export function originHas(o, line) {
  if (!o) return false;
  if (o.span && line >= o.span.line && line <= o.span.end_line) return true;
  return (o.calls || []).some((c) => line >= c.line && line <= c.end_line);
}

export class Stages {
  constructor(root, { onHoverOrigin, onPick, defaults }) {
    this.panes = [...root.querySelectorAll('.pane')].map((p, i) => ({
      root: p,
      select: p.querySelector('.stage-select'),
      note: p.querySelector('.pane-note'),
      body: p.querySelector('.pane-body'),
      stage: defaults[i],
    }));
    this.doc = null;
    this.onHoverOrigin = onHoverOrigin;
    this.onPick = onPick;
    for (const pane of this.panes) {
      for (const [id, title] of STAGES) {
        const o = el('option', null, title);
        o.value = id;
        pane.select.append(o);
      }
      pane.select.value = pane.stage;
      pane.select.addEventListener('change', () => {
        pane.stage = pane.select.value;
        this.onPick();
        this.render();
      });
    }
  }

  // The stages the compile request must ask for.
  wanted() {
    const shown = this.panes.map((p) => p.stage);
    const stages = ['expr', 'ssa-raw', 'ssa', 'layout', 'kernel', 'cuda'];
    if (shown.includes('sass')) stages.push('sass');
    else if (shown.includes('ptx')) stages.push('ptx');
    for (const s of ['mlir', 'mlir-llvm']) if (shown.includes(s)) stages.push(s);
    return { stages, passes: shown.includes('passes') };
  }

  show(doc) {
    this.doc = doc;
    this.render();
  }

  render() {
    for (const pane of this.panes) this.renderPane(pane);
  }

  renderPane(pane) {
    const doc = this.doc;
    pane.body.replaceChildren();
    pane.note.textContent = '';
    if (!doc) return;
    const stage = pane.stage;
    if (stage === 'passes') return this.renderPasses(pane);
    let text = null;
    let lines = null;
    if (['ptx', 'sass', 'mlir', 'mlir-llvm'].includes(stage)) {
      const part = doc[stage];
      if (!part) {
        pane.note.textContent = doc.status === 'ok' ? 'not compiled yet' : 'the kernel has errors';
        return;
      }
      if (part.unavailable || part.error) {
        pane.body.append(el('div', 'pane-message', part.unavailable || part.error));
        if (part.output) pane.body.append(el('pre', 'pane-message', part.output));
        return;
      }
      text = part.text;
      lines = part.lines;
      if (stage === 'ptx') {
        const r = part.resources;
        pane.note.textContent = `sm_${part.sm}, NVRTC ${part.ms.toFixed(1)} ms (${part.cache})` +
          (r ? ` · ${r.registers} registers, ${r.shared_bytes} B shared, ${r.local_bytes} B local per thread (the cubin's)` : '') +
          (part.occupancy ? ` · ${occupancyText(part.occupancy)}` : '');
      }
      if (part.version) pane.note.textContent = part.version;
      if (part.note) pane.note.textContent = part.note;
    } else {
      text = doc.stages?.[stage];
      lines = doc.lines?.[stage];
    }
    if (text == null) {
      pane.body.append(el('div', 'pane-message', doc.status === 'ok' ? 'this stage did not run' : 'not available: the kernel has errors (see the diagnostics)'));
      return;
    }
    pane.body.append(this.renderText(text, lines || []));
  }

  renderText(text, lines, diffOps) {
    const pre = el('div', 'code');
    const rows = text.replace(/\n$/, '').split('\n');
    rows.forEach((row, i) => {
      const origin = lines[i] || null;
      const div = el('div', 'code-line');
      div.append(el('span', 'ln', String(i + 1)));
      div.append(el('span', 'tx', row || ' '));
      if (diffOps) div.classList.add(diffOps[i]);
      if (origin?.span) {
        div.classList.add('linked-line', colourOf(origin.span.line));
        div.title = `line ${origin.span.line}${origin.calls ? ` (inlined from the call${origin.calls.length > 1 ? 's' : ''} at line ${origin.calls.map((c) => c.line).join(', ')})` : ''}`;
        div._origin = origin;
        div.addEventListener('mouseenter', () => this.hoverOrigin(origin, false));
        div.addEventListener('mouseleave', () => this.hoverOrigin(null, false));
        div.addEventListener('click', () => this.hoverOrigin(origin, true));
      }
      pre.append(div);
    });
    return pre;
  }

  renderPasses(pane) {
    const passes = this.doc.passes;
    if (!passes) {
      pane.body.append(el('div', 'pane-message', this.doc.status === 'ok' ? 'compiling with pass dumps...' : 'not available: the kernel has errors'));
      return;
    }
    for (const p of passes) {
      const head = el('div', 'pass-head', `after ${p.pass}${p.changed ? '' : ': no change'}`);
      pane.body.append(head);
      if (!p.changed) continue;
      // Diff rows: '=' and '+' rows are the pass's own lines, in order.
      const rows = [];
      const ops = [];
      const origins = [];
      let at = 0;
      for (const d of p.diff) {
        rows.push(`${d.op === '=' ? ' ' : d.op} ${d.text}`);
        ops.push(d.op === '+' ? 'added' : d.op === '-' ? 'removed' : 'same');
        origins.push(d.op === '-' ? null : p.lines[at++] || null);
      }
      pane.body.append(this.renderText(rows.join('\n'), origins, ops));
    }
  }

  hoverOrigin(origin, sticky) {
    this.onHoverOrigin(origin, sticky);
    this.highlightSource(origin ? origin.span.line : 0, false);
  }

  // Light up every stage line that belongs to source line `line` (0: none).
  highlightSource(line, scroll) {
    for (const pane of this.panes) {
      let first = null;
      for (const div of pane.body.querySelectorAll('.linked-line')) {
        const on = line > 0 && originHas(div._origin, line);
        div.classList.toggle('hot', on);
        if (on && !first) first = div;
      }
      if (scroll && first) first.scrollIntoView({ block: 'nearest' });
    }
  }

  // Source lines that produced a line in a shown stage (for the editor's colours).
  sourceLines() {
    const set = new Set();
    const add = (ls) => (ls || []).forEach((o) => o?.span && set.add(o.span.line));
    if (!this.doc) return set;
    for (const ls of Object.values(this.doc.lines || {})) add(ls);
    return set;
  }
}
