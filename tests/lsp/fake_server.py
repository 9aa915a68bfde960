"""fake_server.py: a small stand-in for the user's Python language server
(pylsp, pyright), for the tests of `mytriton lsp --with` (the mux).

It speaks LSP over stdio with the standard library only and does, visibly,
what such a server does: it takes whole texts (textDocumentSync 1), answers
hover ("fake: NAME") and references, offers completion items and a code
action, publishes one diagnostic per document ("fake: N lines"), and asks
the client for its settings (workspace/configuration) after `initialized`.
It logs each method it receives to stderr and exits 0 after shutdown and
exit, 1 otherwise."""
import json
import sys

docs = {}
shutdown = False


def send(msg):
    body = json.dumps(msg).encode()
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()


def read():
    length = None
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    return json.loads(sys.stdin.buffer.read(length))


def word_at(uri, pos):
    lines = docs.get(uri, "").split("\n")
    if pos["line"] >= len(lines):
        return ""
    text, c = lines[pos["line"]], pos["character"]
    b = c
    while b > 0 and (text[b - 1].isalnum() or text[b - 1] == "_"):
        b -= 1
    e = c
    while e < len(text) and (text[e].isalnum() or text[e] == "_"):
        e += 1
    return text[b:e]


def publish(uri):
    n = docs[uri].count("\n") + 1
    send({"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": {
        "uri": uri, "diagnostics": [{"range": {"start": {"line": 0, "character": 0},
                                               "end": {"line": 0, "character": 1}},
                                     "severity": 3, "source": "fake", "message": "fake: %d lines" % n}]}})


def handle(msg):
    global shutdown
    method, params, mid = msg.get("method"), msg.get("params") or {}, msg.get("id")
    sys.stderr.write("fake: %s\n" % (method or "response %s" % mid))
    if method is None:
        return None
    if method == "initialize":
        return {"capabilities": {"textDocumentSync": 1, "hoverProvider": True, "referencesProvider": True,
                                 "completionProvider": {"triggerCharacters": [".", "["]},
                                 "codeActionProvider": True,
                                 "executeCommandProvider": {"commands": ["fake.organize"]}},
                "serverInfo": {"name": "fake"}}
    if method == "initialized":
        send({"jsonrpc": "2.0", "id": "fake-1", "method": "workspace/configuration",
              "params": {"items": [{"section": "fake"}]}})
    elif method in ("textDocument/didOpen", "textDocument/didChange"):
        td = params["textDocument"]
        if method == "textDocument/didOpen":
            docs[td["uri"]] = td["text"]
        else:
            for ch in params["contentChanges"]:
                if "range" in ch:
                    raise SystemExit("fake: got an incremental change, but asked for whole texts")
                docs[td["uri"]] = ch["text"]
        publish(td["uri"])
    elif method == "textDocument/hover":
        w = word_at(params["textDocument"]["uri"], params["position"])
        return {"contents": {"kind": "markdown", "value": "fake: `%s`" % w}} if w else None
    elif method == "textDocument/references":
        return [{"uri": params["textDocument"]["uri"], "range": {"start": params["position"],
                                                                 "end": params["position"]}}]
    elif method == "textDocument/completion":
        return {"isIncomplete": False, "items": [{"label": "fake_item"}]}
    elif method == "textDocument/codeAction":
        return [{"title": "fake: organize imports", "kind": "source.organizeImports",
                 "command": {"title": "organize", "command": "fake.organize"}}]
    elif method == "workspace/executeCommand":
        return "fake ran %s" % params.get("command")
    elif method == "shutdown":
        shutdown = True
        return None
    elif method == "exit":
        raise SystemExit(0 if shutdown else 1)
    elif mid is not None:
        send({"jsonrpc": "2.0", "id": mid, "error": {"code": -32601, "message": "fake: no " + method}})
        return "no-reply"
    return "no-reply" if mid is None else None


while True:
    m = read()
    if m is None:
        raise SystemExit(0 if shutdown else 1)
    r = handle(m)
    if m.get("id") is not None and m.get("method") and r != "no-reply":
        send({"jsonrpc": "2.0", "id": m["id"], "result": r})
