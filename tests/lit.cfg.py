# lit configuration for heaplint's analyzer tests. Each folder is a suite
# (ctest runs them one by one); tests are the source files themselves, with
# RUN lines and FileCheck directives next to the code they check.
import os
import shutil
import subprocess
import lit.formats

config.name = "heaplint"

site = lit_config.params.get("heaplint_site_config")
if not site or not os.path.exists(site):
    lit_config.fatal("run the suites through ctest, or pass "
                     "--param heaplint_site_config=<build>/tests/lit.site.cfg.py")
exec(compile(open(site).read(), site, "exec"))
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".cpp", ".test"]
config.excludes = ["Inputs", "support", "runtime"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = os.path.join(config.heaplint_obj_root, "tests", "lit-out")

# Keep the environment small and predictable: no user config leaks in.
config.environment["LC_ALL"] = "C"
config.environment.pop("HEAPLINT_PROFILE_DIR", None)

# strace, where it can trace (a container may forbid ptrace): tests that
# check the order of a written file's fchmod, fsync and rename need it.
if shutil.which("strace") and subprocess.run(["strace", "-qq", "-o", os.devnull, "true"],
                                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
    config.available_features.add("strace")

# A character device made in a test's own folder (mknod needs root, or
# CAP_MKNOD in a container): tests of outputs into a device need it.
def _can_mknod():
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        return subprocess.run(["mknod", os.path.join(d, "null"), "c", "1", "3"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0

if _can_mknod():
    config.available_features.add("mknod")

# Giving a file to another user (root, or CAP_CHOWN): --fix must keep a
# file's owner; and running heaplint as that other user (setpriv, from
# util-linux), to see it refuse what it cannot keep.
def _can_chown():
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "f")
        open(p, "w").close()
        try:
            os.chown(p, 4242, 4242)
            return True
        except OSError:
            return False

if _can_chown():
    config.available_features.add("chown")
    if shutil.which("setpriv") and subprocess.run(
            ["setpriv", "--reuid=4343", "--regid=4343", "--clear-groups", "true"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0:
        config.available_features.add("setpriv")

# 32-bit x86 (g++ -m32, Debian's g++-multilib): programs run natively where
# the kernel can, else through qemu-i386 (Debian's qemu-user); %emulator32
# is the heaplint calibrate option that says which, %run32 the prefix.
def _m32_runner():
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        src, exe = os.path.join(d, "t.cpp"), os.path.join(d, "t")
        with open(src, "w") as f:
            f.write("#include <functional>\nint main() { std::function<void()> f = [] {}; f(); }\n")
        if subprocess.run([config.gxx, "-m32", src, "-o", exe], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode != 0:
            return None
        for runner in ([], ["qemu-i386"]):
            try:
                if subprocess.run(runner + [exe], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL).returncode == 0:
                    return runner
            except OSError:
                pass
    return None

_runner32 = _m32_runner()
if _runner32 is not None:
    config.available_features.add("m32")
if _runner32:
    config.available_features.add("m32-emulated")  # the kernel cannot run i386 itself
config.substitutions.append(("%emulator32", "--emulator=" + _runner32[0] if _runner32 else ""))
config.substitutions.append(("%run32", " ".join(_runner32 or [])))

# Microsoft's SARIF validator (npm's @microsoft/sarif-multitool, a .NET
# program): $HEAPLINT_SARIF_MULTITOOL, where scripts/quickstart.sh installs it
# (<build>/npm), or on PATH. Its tests need npm; without npm they are
# unsupported, with npm but no validator they fail saying how to install it.
def _sarif_multitool():
    candidates = [os.environ.get("HEAPLINT_SARIF_MULTITOOL", ""),
                  os.path.join(config.heaplint_obj_root, "npm", "node_modules", "@microsoft",
                               "sarif-multitool-linux", "Sarif.Multitool")]
    for c in candidates:
        if c and os.access(c, os.X_OK):
            return c
    return shutil.which("sarif-multitool")

if shutil.which("npm"):
    config.available_features.add("npm")
_multitool = _sarif_multitool()
config.substitutions.append(("%sarif-multitool", _multitool or
    "sh -c 'echo \"the SARIF validator is not installed: scripts/quickstart.sh test installs it "
    "(npm install --prefix <build>/npm @microsoft/sarif-multitool)\" >&2; exit 1' --"))

# The man page's checkers (tests/cli/manpage.test): Debian's groff-base and
# mandoc; zsh for its completion (tests/cli/completion.test).
for _tool in ("groff", "mandoc", "zsh"):
    if shutil.which(_tool):
        config.available_features.add(_tool)

inputs = os.path.join(config.test_source_root, "support")
# The counting global operator new (count_new.hpp), heaplint calibrate's own.
probes = os.path.join(config.heaplint_src_root, "analyzer", "calibrate", "probes")
config.substitutions.extend([
    ("%heaplint", config.heaplint),
    ("%FileCheck", config.filecheck),
    ("%not", config.not_tool),
    ("%count", os.path.join(os.path.dirname(config.not_tool), "count")),
    ("%clang-apply-replacements", os.path.join(os.path.dirname(config.not_tool), "clang-apply-replacements")),
    ("%clangxx", config.clangxx),
    ("%gxx", config.gxx),
    ("%clang-tidy-diff", config.clang_tidy_diff),
    ("%run-clang-tidy", config.run_clang_tidy),
    ("%clang-tidy", config.clang_tidy),
    ("%groundtruth", config.groundtruth),
    ("%fixcorpus", config.fixcorpus),
    ("%support", inputs),
    ("%probes", probes),
    ("%src_root", config.heaplint_src_root),
    ("%obj_root", config.heaplint_obj_root),
    ("%runtime_lib", config.runtime_lib),
    # SARIF checked against the 2.1.0 schema (vendored in tests/support),
    # with Debian's python3-jsonschema.
    ("%validate-sarif",
     "/usr/bin/python3 -c \"import json, sys, jsonschema; "
     "jsonschema.Draft4Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))\" "
     + os.path.join(inputs, "sarif-2.1.0-rtm.5.json")),
    # The two standard libraries every rule is checked against.
    ("%libstdcxx", "-std=c++17"),
    ("%libcxx", "-std=c++17 -stdlib=libc++"),
])

# engine/inst/instances, built with libclang-cpp and the same clang as libclang
# (heaplint --version's second line says so): its cross-check test needs it.
try:
    _version = subprocess.run([config.heaplint, "--version"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True).stdout
except OSError:
    _version = ""
if "instances: read from clang's AST" in _version:
    config.available_features.add("instances")

# A heaplint built with the sanitizers (quickstart's second lit pass points
# heaplint_obj_root at build-asan/): tests whose whole cost is many plain
# runs of code other tests already drive under the sanitizers are left out
# there ('UNSUPPORTED: sanitized'), and say why.
try:
    with open(os.path.join(config.heaplint_obj_root, "CMakeCache.txt")) as _cache:
        if any(line.strip() == "HEAPLINT_SANITIZE:BOOL=ON" for line in _cache):
            config.available_features.add("sanitized")
except OSError:
    pass
