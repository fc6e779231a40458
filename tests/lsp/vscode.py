#!/usr/bin/env python3
"""The VS Code extension (editors/vscode) starts `heaplint lsp`.

Always (needs node, else exit 77 = skipped): the manifest activates on C++
and points at extension.js; extension.js, run under node with stand-ins for
the `vscode` and `vscode-languageclient` modules, asks for the command
`<heaplint.path> lsp <heaplint.args...>` with the debounce as an
initialization option; that command line, started, answers initialize.

With --package (ctest lsp.vscode-package, when configured with
-DHEAPLINT_TEST_VSCODE_PACKAGE=ON: it needs the npm registry and some 140 MB
of node_modules): npm install, then @vscode/vsce package; the .vsix holds the
manifest and extension.js.

usage: vscode.py --heaplint <path to heaplint> [--package]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lspclient  # noqa: E402

EXTENSION = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "editors", "vscode")

# Runs activate() with the two modules it requires replaced, and prints what
# it handed the language client.
HARNESS = r"""
const Module = require("module");
const settings = JSON.parse(process.argv[3]);
const stubs = {
  vscode: {
    workspace: {
      getConfiguration: (section) => ({ get: (key, dflt) => (section + "." + key in settings ? settings[section + "." + key] : dflt) }),
      createFileSystemWatcher: (glob) => ({ glob }),
    },
  },
  "vscode-languageclient/node": {
    LanguageClient: class {
      constructor(id, name, server, client) { Object.assign(this, { id, name, server, client }); }
      start() {
        console.log(JSON.stringify({ id: this.id, server: this.server, client: this.client }));
        return Promise.resolve();
      }
      stop() { return Promise.resolve(); }
    },
  },
};
const load = Module._load;
Module._load = function (request, parent, isMain) {
  return request in stubs ? stubs[request] : load.apply(this, arguments);
};
require(process.argv[2]).activate({ subscriptions: [] });
"""


def check_manifest():
    with open(os.path.join(EXTENSION, "package.json")) as f:
        m = json.load(f)
    assert m["main"] == "./extension.js" and os.path.isfile(os.path.join(EXTENSION, "extension.js")), m
    assert "onLanguage:cpp" in m["activationEvents"], m["activationEvents"]
    assert "vscode-languageclient" in m["dependencies"], m
    props = m["contributes"]["configuration"]["properties"]
    assert props["heaplint.path"]["default"] == "heaplint", props
    return m


def check_activation(heaplint, node):
    top = tempfile.mkdtemp(prefix="heaplint-vscode-")
    try:
        harness = os.path.join(top, "harness.js")
        with open(harness, "w") as f:
            f.write(HARNESS)
        settings = {"heaplint.path": heaplint, "heaplint.args": ["--debounce=50"], "heaplint.debounce": 123}
        run = subprocess.run([node, harness, os.path.join(EXTENSION, "extension.js"), json.dumps(settings)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        assert run.returncode == 0, run.stderr.decode()
        got = json.loads(run.stdout.decode().strip().splitlines()[-1])
        cmd = got["server"]["run"]
        assert cmd == {"command": heaplint, "args": ["lsp", "--debounce=50"]}, got
        assert got["client"]["initializationOptions"] == {"debounce": 123}, got
        assert {"scheme": "file", "language": "cpp"} in got["client"]["documentSelector"], got
        # The command line the extension runs is a working language server.
        c = lspclient.Client([cmd["command"]] + cmd["args"], cwd=top)
        r = c.call("initialize", {"processId": None, "rootUri": None, "capabilities": {},
                                  "initializationOptions": got["client"]["initializationOptions"]})
        assert r["result"]["serverInfo"]["name"] == "heaplint", r
        assert c.call("shutdown", None)["result"] is None
        c.notify("exit", None)
        assert c.close() == 0
        print("ok: the extension runs %s %s" % (os.path.basename(cmd["command"]), " ".join(cmd["args"])))
    finally:
        shutil.rmtree(top)


def check_package(npm, manifest):
    top = tempfile.mkdtemp(prefix="heaplint-vsce-")
    try:
        ext = os.path.join(top, "vscode")
        shutil.copytree(EXTENSION, ext, ignore=shutil.ignore_patterns("node_modules", "*.vsix"))
        for argv in ([npm, "install", "--no-audit", "--no-fund"],
                     ["npx", "vsce", "package", "--allow-missing-repository"]):
            run = subprocess.run(argv, cwd=ext, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=900)
            assert run.returncode == 0, "%s failed:\n%s" % (" ".join(argv), run.stdout.decode())
        vsix = os.path.join(ext, "heaplint-%s.vsix" % manifest["version"])
        with zipfile.ZipFile(vsix) as z:
            names = z.namelist()
            packed = json.loads(z.read("extension/package.json"))
        assert "extension/extension.js" in names, names[:20]
        assert any(n.startswith("extension/node_modules/vscode-languageclient/") for n in names), "no client library"
        assert packed["main"] == "./extension.js" and packed["name"] == "heaplint", packed
        print("ok: %s (%d files)" % (os.path.basename(vsix), len(names)))
    finally:
        shutil.rmtree(top)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--heaplint", required=True)
    ap.add_argument("--package", action="store_true")
    a = ap.parse_args()
    node, npm = shutil.which("node"), shutil.which("npm")
    if not node or (a.package and not npm):
        print("vscode.py: no node%s: skipped" % (" or npm" if a.package else ""))
        return 77
    try:
        manifest = check_manifest()
        check_activation(os.path.abspath(a.heaplint), node)
        if a.package:
            check_package(npm, manifest)
    except AssertionError as e:
        print("FAIL: %s" % e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
