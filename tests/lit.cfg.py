# lit configuration for heaplint's analyzer tests. Each folder is a suite
# (ctest runs them one by one); tests are the source files themselves, with
# RUN lines and FileCheck directives next to the code they check.
import os
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

inputs = os.path.join(config.test_source_root, "support")
config.substitutions.extend([
    ("%heaplint", config.heaplint),
    ("%FileCheck", config.filecheck),
    ("%not", config.not_tool),
    ("%clangxx", config.clangxx),
    ("%gxx", config.gxx),
    ("%groundtruth", config.groundtruth),
    ("%support", inputs),
    ("%src_root", config.heaplint_src_root),
    # The two standard libraries every rule is checked against.
    ("%libstdcxx", "-std=c++17"),
    ("%libcxx", "-std=c++17 -stdlib=libc++"),
])
