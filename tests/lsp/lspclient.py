"""A minimal LSP client over a child process's stdin/stdout (python3's
standard library only), for the language server's tests: framing,
requests with ids, and waiting for a message that matches."""
import json
import os
import queue
import subprocess
import threading
import time


class Client:
    def __init__(self, argv, cwd=None, env=None):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=cwd, env=env)
        self.messages = queue.Queue()
        self.backlog = []
        self.next_id = 1
        self.stderr = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            body = out.read(length)
            self.messages.put(json.loads(body))

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr.append(line.decode("utf-8", "replace"))

    def send_raw(self, body):
        if isinstance(body, str):
            body = body.encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def send(self, msg):
        msg = dict(msg, jsonrpc="2.0")
        self.send_raw(json.dumps(msg))

    def notify(self, method, params):
        self.send({"method": method, "params": params})

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"id": rid, "method": method, "params": params})
        return rid

    def wait(self, pred, timeout=60, what="a message"):
        """The first message (the backlog first) for which pred is true."""
        for i, m in enumerate(self.backlog):
            if pred(m):
                return self.backlog.pop(i)
        end = time.time() + timeout
        while True:
            left = end - time.time()
            if left <= 0:
                raise AssertionError("timed out waiting for %s; stderr:\n%s" % (what, "".join(self.stderr)))
            try:
                m = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if m is None:
                raise AssertionError("the server closed its output waiting for %s; stderr:\n%s"
                                     % (what, "".join(self.stderr)))
            if pred(m):
                return m
            self.backlog.append(m)

    def response(self, rid, timeout=60):
        return self.wait(lambda m: m.get("id") == rid and "method" not in m, timeout, "the response to %r" % rid)

    def call(self, method, params, timeout=60):
        return self.response(self.request(method, params), timeout)

    def diagnostics(self, uri, version=None, timeout=60):
        def match(m):
            return (m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
                    and (version is None or m["params"].get("version") == version))
        return self.wait(match, timeout, "diagnostics of %s (version %s)" % (uri, version))["params"]["diagnostics"]

    def rss_kib(self):
        with open("/proc/%d/status" % self.proc.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
        return -1

    def close(self, timeout=30):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        return self.proc.wait(timeout)


def uri(path):
    from urllib.parse import quote
    return "file://" + quote(os.path.abspath(path))
