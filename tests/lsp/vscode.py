#!/usr/bin/env python3
"""The VS Code extension (editors/vscode) starts `heaplint lsp`.

Always (needs node, else exit 77 = skipped): the manifest activates on C++
and points at extension.js; extension.js, run under node with stand-ins for
the `vscode` and `vscode-languageclient` modules, asks for the command
`<heaplint.path> lsp <heaplint.args...>` with the debounce as an
initialization option; that command line, started, answers initialize.

With --package (ctest lsp.vscode-package, when configured with
-DHEAPLINT_TEST_VSCODE_PACKAGE=ON, which scripts/quickstart.sh test does
when npm is there: it needs the npm registry and some 140 MB of
node_modules): npm install, then @vscode/vsce package; the .vsix holds the
manifest, extension.js and the client library, and what it packed starts
the server: its package.json says `<path> lsp`, and its extension.js, run as
above, asks for `<heaplint.path> lsp ...`. With --work-dir the extension is
built there and its node_modules kept for the next run, installed again
only when package.json changed (the ctest keeps it in the build tree: a
first run spends about a minute in npm install, the next ones seconds);
without, in a temporary directory.

usage: vscode.py --heaplint <path to heaplint> [--package [--work-dir <dir>]]
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lspclient  # noqa: E402

EXTENSION = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "editors", "vscode")

# Runs activate() with the two modules it requires replaced, and prints what
# it handed the language client.
HARNESS = r"""
const Module = require("module");
const settings = JSON.parse(process.argv[3]);
const commands = {};
let restarted = 0, shown = 0;
const stubs = {
  vscode: {
    commands: { registerCommand: (id, fn) => { commands[id] = fn; return { dispose() {} }; } },
    workspace: {
      getConfiguration: (section) => ({ get: (key, dflt) => (section + "." + key in settings ? settings[section + "." + key] : dflt) }),
      createFileSystemWatcher: (glob) => ({ glob }),
    },
  },
  "vscode-languageclient/node": {
    LanguageClient: class {
      constructor(id, name, server, client) { Object.assign(this, { id, name, server, client }); }
      get outputChannel() { return { show: () => { shown++; } }; }
      start() { return Promise.resolve(); }
      restart() { restarted++; return Promise.resolve(); }
      stop() { return Promise.resolve(); }
    },
  },
};
const load = Module._load;
Module._load = function (request, parent, isMain) {
  return request in stubs ? stubs[request] : load.apply(this, arguments);
};
let client;
const Real = stubs["vscode-languageclient/node"].LanguageClient;
stubs["vscode-languageclient/node"].LanguageClient = class extends Real {
  constructor(...a) { super(...a); client = this; }
};
const context = { subscriptions: [] };
require(process.argv[2]).activate(context);
// Each command the extension registers runs against its client.
for (const id of Object.keys(commands)) commands[id]();
console.log(JSON.stringify({ id: client.id, server: client.server, client: client.client,
                             commands: Object.keys(commands).sort(), restarted, shown,
                             subscriptions: context.subscriptions.length }));
"""


def check_manifest():
    with open(os.path.join(EXTENSION, "package.json")) as f:
        m = json.load(f)
    assert m["main"] == "./extension.js" and os.path.isfile(os.path.join(EXTENSION, "extension.js")), m
    assert "onLanguage:cpp" in m["activationEvents"], m["activationEvents"]
    assert "vscode-languageclient" in m["dependencies"], m
    props = m["contributes"]["configuration"]["properties"]
    assert props["heaplint.path"]["default"] == "heaplint", props
    # The client reads <id>.trace.server: the protocol log, off by default.
    assert props["heaplint.trace.server"]["default"] == "off", props
    # The server's own default: the adaptive debounce (docs/editors.md).
    assert props["heaplint.debounce"]["default"] == "auto", props
    assert props["heaplint.fastFirst"]["default"] is True, props
    declared = sorted(c["command"] for c in m["contributes"]["commands"])
    assert declared == ["heaplint.restartServer", "heaplint.showOutput"], declared
    with open(os.path.join(EXTENSION, ".vscodeignore")) as f:
        ignored = f.read().split()
    assert ".gitignore" in ignored, "the package would carry .gitignore"
    return m


def check_activation(heaplint, node, extension_js=os.path.join(EXTENSION, "extension.js"), what="the extension"):
    top = tempfile.mkdtemp(prefix="heaplint-vscode-")
    try:
        harness = os.path.join(top, "harness.js")
        with open(harness, "w") as f:
            f.write(HARNESS)
        settings = {"heaplint.path": heaplint, "heaplint.args": ["--debounce=50"], "heaplint.debounce": 123}
        run = subprocess.run([node, harness, extension_js, json.dumps(settings)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        assert run.returncode == 0, run.stderr.decode()
        got = json.loads(run.stdout.decode().strip().splitlines()[-1])
        cmd = got["server"]["run"]
        assert cmd == {"command": heaplint, "args": ["lsp", "--debounce=50"]}, got
        assert got["client"]["initializationOptions"] == {"debounce": 123, "fastFirst": True}, got
        assert {"scheme": "file", "language": "cpp"} in got["client"]["documentSelector"], got
        assert got["id"] == "heaplint", got  # what makes heaplint.trace.server apply
        assert got["commands"] == ["heaplint.restartServer", "heaplint.showOutput"], got
        assert got["restarted"] == 1 and got["shown"] == 1, got
        assert got["subscriptions"] == 3, got  # both commands and the client, disposed with the extension
        # The command line the extension runs is a working language server.
        c = lspclient.Client([cmd["command"]] + cmd["args"], cwd=top)
        r = c.call("initialize", {"processId": None, "rootUri": None, "capabilities": {},
                                  "initializationOptions": got["client"]["initializationOptions"]})
        assert r["result"]["serverInfo"]["name"] == "heaplint", r
        assert c.call("shutdown", None)["result"] is None
        c.notify("exit", None)
        assert c.close() == 0
        print("ok: %s runs %s %s" % (what, os.path.basename(cmd["command"]), " ".join(cmd["args"])))
    finally:
        shutil.rmtree(top)


def run_logged(argv, cwd, timeout=900):
    t = time.time()
    run = subprocess.run(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    assert run.returncode == 0, "%s failed:\n%s" % (" ".join(argv), run.stdout.decode())
    print("%s: %.1f s" % (" ".join(argv[:3]), time.time() - t))


def build_package(npm, npx, ext, vsix_name):
    """Copies the extension into ext (its node_modules kept), installs its
    dependencies when package.json changed since the last install, and
    packs it; returns the .vsix's path."""
    os.makedirs(ext, exist_ok=True)
    for name in os.listdir(ext):
        if name not in ("node_modules", "package-lock.json"):
            p = os.path.join(ext, name)
            shutil.rmtree(p) if os.path.isdir(p) and not os.path.islink(p) else os.unlink(p)
    for name in os.listdir(EXTENSION):
        if name in ("node_modules",) or name.endswith(".vsix"):
            continue
        src = os.path.join(EXTENSION, name)
        (shutil.copytree if os.path.isdir(src) else shutil.copy2)(src, os.path.join(ext, name))
    with open(os.path.join(ext, "package.json"), "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    stamp = os.path.join(ext, "node_modules", ".heaplint-installed")
    installed = None
    if os.path.isfile(stamp):
        with open(stamp) as f:
            installed = f.read()
    if installed == digest:
        print("npm install: node_modules are up to date with package.json")
    else:
        run_logged([npm, "install", "--no-audit", "--no-fund", "--prefer-offline"], ext)
        with open(stamp, "w") as f:
            f.write(digest)
    run_logged([npx, "--no-install", "vsce", "package", "--allow-missing-repository"], ext)
    return os.path.join(ext, vsix_name)


def check_package(heaplint, node, npm, manifest, work_dir):
    top = tempfile.mkdtemp(prefix="heaplint-vsce-")
    try:
        vsix = build_package(npm, shutil.which("npx") or "npx", work_dir or os.path.join(top, "vscode"),
                             "heaplint-%s.vsix" % manifest["version"])
        with zipfile.ZipFile(vsix) as z:
            names = z.namelist()
            packed = json.loads(z.read("extension/package.json"))
            packed_js = z.read("extension/extension.js").decode("utf-8")
        assert "extension/extension.js" in names, names[:20]
        assert any(n.startswith("extension/node_modules/vscode-languageclient/") for n in names), "no client library"
        assert packed["main"] == "./extension.js" and packed["name"] == "heaplint", packed
        # What the package starts: `<heaplint.path> lsp`, in its manifest and
        # in its code, run.
        props = packed["contributes"]["configuration"]["properties"]
        assert "`<path> lsp`" in props["heaplint.path"]["description"], props["heaplint.path"]
        assert "after `lsp`" in props["heaplint.args"]["description"], props["heaplint.args"]
        assert '["lsp", ' in packed_js, "the packed extension.js does not start `lsp`"
        unpacked = os.path.join(top, "packed-extension.js")
        with open(unpacked, "w", encoding="utf-8") as f:
            f.write(packed_js)
        check_activation(heaplint, node, unpacked, "the packed extension")
        print("ok: %s (%d files) starts `heaplint lsp`" % (os.path.basename(vsix), len(names)))
    finally:
        shutil.rmtree(top)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--heaplint", required=True)
    ap.add_argument("--package", action="store_true")
    ap.add_argument("--work-dir", help="build the package here, keeping node_modules between runs")
    a = ap.parse_args()
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or (a.package and not npm):
        print("vscode.py: no node%s: skipped" % (" or npm" if a.package else ""))
        return 77
    try:
        manifest = check_manifest()
        check_activation(os.path.abspath(a.heaplint), node)
        if a.package:
            check_package(os.path.abspath(a.heaplint), node, npm, manifest,
                          os.path.abspath(a.work_dir) if a.work_dir else None)
    except AssertionError as e:
        print("FAIL: %s" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
