// history.js: the run history (kept by the server in SQLite): newest first;
// click a run to reopen it (its source, kernel, specialisation and launch
// go back into the editor and the panel, its results into the Results
// tab); tick two runs to compare them side by side.
import { get, del } from './api.js';

const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
};
const fmt = (v) => (typeof v === 'number' ? Number(v.toPrecision(5)).toString() : v ?? '');

export class HistoryView {
  constructor(root, { onOpen }) {
    this.root = root;
    this.onOpen = onOpen;
    this.picked = new Set();
  }

  async refresh() {
    let runs;
    try {
      runs = (await get('/api/runs?limit=200')).runs;
    } catch (e) {
      this.root.replaceChildren(el('p', 'run-error', e.message));
      return;
    }
    const root = this.root;
    root.replaceChildren();
    if (!runs.length) {
      root.append(el('p', 'hint', 'No runs yet.'));
      return;
    }
    const bar = el('div', 'history-bar');
    const cmp = el('button', null, 'Compare the two ticked runs');
    cmp.disabled = this.picked.size !== 2;
    cmp.addEventListener('click', () => this.compare([...this.picked]));
    bar.append(cmp);
    root.append(bar);
    const t = el('table', 'history');
    const hr = el('tr');
    for (const c of ['', 'run', 'when (UTC)', 'file', 'kernel', 'signature', 'backend', 'status', 'time (ms)', ''])
      hr.append(el('th', null, c));
    t.append(hr);
    for (const r of runs) {
      const tr = el('tr', `run-row ${r.status}`);
      tr.dataset.run = r.id;
      const tick = el('input');
      tick.type = 'checkbox';
      tick.checked = this.picked.has(r.id);
      tick.addEventListener('click', (e) => {
        e.stopPropagation();
        if (tick.checked) this.picked.add(r.id);
        else this.picked.delete(r.id);
        cmp.disabled = this.picked.size !== 2;
      });
      const remove = el('button', 'small', 'delete');
      remove.addEventListener('click', async (e) => {
        e.stopPropagation();
        try {
          await del(`/api/runs/${r.id}`);
          this.picked.delete(r.id);
          this.refresh();
        } catch (err) {
          alert(err.message);
        }
      });
      const td0 = el('td');
      td0.append(tick);
      tr.append(td0, el('td', null, String(r.id)), el('td', null, r.created.replace('T', ' ').replace('Z', '')),
        el('td', null, r.path), el('td', null, r.kernel), el('td', 'sig', r.signature),
        el('td', null, r.backend + (r.compare ? ' + compare' : '') + (r.profile ? ` × ${r.profile}` : '')),
        el('td', `badge ${r.status}`, r.status), el('td', 'num', fmt(r.time_ms)));
      const td = el('td');
      td.append(remove);
      tr.append(td);
      tr.title = r.error || '';
      tr.addEventListener('click', () => this.onOpen(r.id));
      t.append(tr);
    }
    root.append(t);
    this.out = el('div', 'compare-out');
    root.append(this.out);
  }

  async compare(ids) {
    const [a, b] = await Promise.all(ids.sort((x, y) => x - y).map((id) => get(`/api/runs/${id}`)));
    const arrays = (run) => new Map(((run.result || {}).arrays || []).map((x) => [x.name, x]));
    const A = arrays(a);
    const B = arrays(b);
    const t = el('table', 'outputs');
    const hr = el('tr');
    for (const c of ['', `run ${a.id}`, `run ${b.id}`]) hr.append(el('th', null, c));
    t.append(hr);
    const row = (label, x, y) => {
      const tr = el('tr');
      tr.append(el('td', 'name', label), el('td', 'num', fmt(x)), el('td', `num ${x !== y ? 'differs' : ''}`, fmt(y)));
      t.append(tr);
    };
    row('kernel', a.kernel, b.kernel);
    row('signature', a.signature, b.signature);
    row('backend', a.backend, b.backend);
    row('source', a.source_sha256.slice(0, 12), b.source_sha256.slice(0, 12));
    row('time (ms)', a.time_ms, b.time_ms);
    for (const name of new Set([...A.keys(), ...B.keys()])) {
      row(`${name} sum`, A.get(name)?.stats?.sum, B.get(name)?.stats?.sum);
      row(`${name} max`, A.get(name)?.stats?.max, B.get(name)?.stats?.max);
      row(`${name} checksum`, A.get(name)?.fnv1a, B.get(name)?.fnv1a);
    }
    this.out.replaceChildren(t);
  }
}
