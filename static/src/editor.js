// editor.js: the kernel editor (CodeMirror 6 with Python), its diagnostics,
// and its half of the source <-> stage links.
//
// The compile results arrive from outside (main.js runs /api/compile as
// the text changes); this module shows them: squiggles and messages with
// the compiler's quick fixes (lint), a colour per source line that produced
// stage lines, and highlighted ranges for the stage line under the pointer.
// Hovering or clicking a source line calls onLine(line, sticky).
import { EditorView, keymap, lineNumbers, highlightActiveLine, Decoration, drawSelection } from '@codemirror/view';
import { EditorState, StateField, StateEffect, RangeSetBuilder } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { python } from '@codemirror/lang-python';
import { syntaxHighlighting, defaultHighlightStyle, indentUnit, bracketMatching } from '@codemirror/language';
import { lintGutter, setDiagnostics, lintKeymap } from '@codemirror/lint';
import { searchKeymap } from '@codemirror/search';

export const PALETTE = 10;
export const colourOf = (line) => `c${line % PALETTE}`;

const setColours = StateEffect.define();    // Map line -> true (lines with stage lines)
const setHighlight = StateEffect.define();  // [{from, to}] ranges, or [] to clear

const colourField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    for (const e of tr.effects) {
      if (!e.is(setColours)) continue;
      const b = new RangeSetBuilder();
      const doc = tr.state.doc;
      for (const line of [...e.value].sort((a, c) => a - c)) {
        if (line < 1 || line > doc.lines) continue;
        b.add(doc.line(line).from, doc.line(line).from, Decoration.line({ class: `src-line ${colourOf(line)}` }));
      }
      return b.finish();
    }
    return tr.docChanged ? deco.map(tr.changes) : deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

const highlightField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    for (const e of tr.effects) {
      if (!e.is(setHighlight)) continue;
      const len = tr.state.doc.length;
      const ranges = e.value
        .map((r) => ({ from: Math.min(r.from, len), to: Math.min(Math.max(r.to, r.from), len), cls: r.cls }))
        .filter((r) => r.to > r.from)
        .sort((a, c) => a.from - c.from || a.to - c.to);
      return Decoration.set(ranges.map((r) => Decoration.mark({ class: r.cls || 'linked' }).range(r.from, r.to)));
    }
    return tr.docChanged ? deco.map(tr.changes) : deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

export function createEditor(parent, { nonce, onChange, onLine }) {
  let lastLine = 0;
  const lineAt = (view, event) => {
    const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
    return pos == null ? 0 : view.state.doc.lineAt(pos).number;
  };
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: '',
      extensions: [
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        bracketMatching(),
        indentUnit.of('    '),
        python(),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        lintGutter(),
        colourField,
        highlightField,
        keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap, ...lintKeymap, indentWithTab]),
        EditorView.cspNonce.of(nonce || ''),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) onChange(u.state.doc.toString());
        }),
        EditorView.domEventHandlers({
          mousemove(event, v) {
            const line = lineAt(v, event);
            if (line !== lastLine) {
              lastLine = line;
              onLine(line, false);
            }
          },
          mouseleave() {
            lastLine = 0;
            onLine(0, false);
          },
          mousedown(event, v) {
            onLine(lineAt(v, event), true);
          },
        }),
      ],
    }),
  });
  return {
    view,
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    text: () => view.state.doc.toString(),
    // diagnostics: the compile document's, with from/to (UTF-16) and fixes
    setDiagnostics(diags) {
      const len = view.state.doc.length;
      const list = diags
        .filter((d) => d.from !== undefined)
        .map((d) => ({
          from: Math.min(d.from, len),
          to: Math.min(Math.max(d.to, d.from), len),
          severity: d.severity === 'error' ? 'error' : d.severity === 'warning' ? 'warning' : 'info',
          message: `${d.message}${d.code ? ` [${d.code}]` : ''}`,
          actions: (d.fixes || []).map((f) => ({
            name: f.title,
            apply(v) {
              v.dispatch({ changes: f.edits.map((e) => ({ from: e.from, to: e.to, insert: e.insert })) });
            },
          })),
        }));
      view.dispatch(setDiagnostics(view.state, list));
    },
    setColours(lines) {
      view.dispatch({ effects: setColours.of(lines) });
    },
    highlight(ranges) {
      view.dispatch({ effects: setHighlight.of(ranges) });
    },
    scrollToLine(line) {
      if (line < 1 || line > view.state.doc.lines) return;
      view.dispatch({ effects: EditorView.scrollIntoView(view.state.doc.line(line).from, { y: 'nearest' }) });
    },
    applyEdits(edits) {
      view.dispatch({ changes: edits.map((e) => ({ from: e.from, to: e.to, insert: e.insert })) });
    },
    selection() {
      const r = view.state.selection.main;
      return { from: r.from, to: r.to };
    },
  };
}
