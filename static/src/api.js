// api.js: the dashboard's JSON API (docs/dashboard.md), as the page calls it.
// Every call rejects with an ApiError carrying the server's {"error": {...}}.

export class ApiError extends Error {
  constructor(status, error, doc) {
    super(error?.message || `HTTP ${status}`);
    this.status = status;
    this.code = error?.code;
    this.field = error?.field;
    this.doc = doc;
  }
}

export async function api(path, { method = 'GET', body, raw } = {}) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.body = raw ? body : JSON.stringify(body);
    init.headers['Content-Type'] = raw ? 'application/octet-stream' : 'application/json';
  }
  const r = await fetch(path, init);
  let doc = null;
  try {
    doc = await r.json();
  } catch {
    doc = null;
  }
  if (!r.ok) throw new ApiError(r.status, doc?.error, doc);
  return doc;
}

export const get = (path) => api(path);
export const post = (path, body) => api(path, { method: 'POST', body });
export const upload = (file) => api('/api/uploads', { method: 'POST', body: file, raw: true });
export const del = (path) => api(path, { method: 'DELETE' });

// Follow a run's Server-Sent Events until `done`; onEvent(name, data) for each.
export function follow(id, onEvent) {
  return new Promise((resolve) => {
    const es = new EventSource(`/api/events/${id}`);
    for (const name of ['queued', 'started', 'progress'])
      es.addEventListener(name, (e) => onEvent(name, JSON.parse(e.data)));
    es.addEventListener('done', (e) => {
      es.close();
      const data = JSON.parse(e.data);
      onEvent('done', data);
      resolve(data);
    });
    es.onerror = () => {
      if (es.readyState === EventSource.CLOSED) resolve({ status: 'error', error: 'the event stream closed' });
    };
  });
}
