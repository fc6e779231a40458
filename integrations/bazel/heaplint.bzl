"""heaplint_aspect: heaplint over the C and C++ sources of cc_* targets.

    bazel build //... --aspects=@heaplint//:heaplint.bzl%heaplint_aspect \
        --output_groups=report [--action_env=HEAPLINT=/path/to/heaplint]

One action per source file of each cc_* target and of its deps, with the
flags that target's compile action gets from the C/C++ toolchain and from
the target (includes, defines, copts). Its outputs, per source:

  output group `report`: heaplint's report (<source>.heaplint.txt, or .json /
                         .sarif with --define=heaplint_format=json|sarif)
  output group `fixes`:  its fixes, clang-apply-replacements YAML
                         (<source>.heaplint.yaml, heaplint --export-fixes)

Findings do not fail the build, unless --define=heaplint_werror=1: then
heaplint runs with --werror and a source with warnings (or errors) fails
its action, its report on the build's output. Bazel 4 has no
--aspects_parameters, so the options are --define values (ctx.var).

heaplint's configuration is default.heaplint.yaml (its defaults), or the
file named with --@heaplint//:config=//:.heaplint.yaml, an input of every
action; a .heaplint.yaml beside the sources is not looked for.
"""

load("@bazel_tools//tools/build_defs/cc:action_names.bzl", "ACTION_NAMES")
load("@bazel_tools//tools/cpp:toolchain_utils.bzl", "find_cpp_toolchain")

_C_EXTENSIONS = ["c"]
_CXX_EXTENSIONS = ["cc", "cpp", "cxx", "c++", "C", "cp", "CPP"]

_FORMATS = {"text": "txt", "json": "json", "sarif": "sarif"}

# What a target and its deps produced, for the output groups.
_HeaplintInfo = provider(fields = ["reports", "fixes"])

def _sources(ctx):
    # Headers in srcs are analyzed through the sources that include them.
    return [
        f
        for target in ctx.rule.attr.srcs
        for f in target.files.to_list()
        if f.extension in _C_EXTENSIONS or f.extension in _CXX_EXTENSIONS
    ]

def _toolchain_flags(ctx, cc_toolchain, feature_configuration, action_name, user_flags, compilation_context):
    variables = cc_common.create_compile_variables(
        feature_configuration = feature_configuration,
        cc_toolchain = cc_toolchain,
        user_compile_flags = user_flags,
        include_directories = compilation_context.includes,
        quote_include_directories = compilation_context.quote_includes,
        system_include_directories = compilation_context.system_includes,
        preprocessor_defines = depset(
            _local_defines(ctx),
            transitive = [compilation_context.defines],
        ),
    )
    # As the compile action has them, without -c and -o: libclang 19 takes
    # (and ignores) the GCC-only flags Bazel's auto-configured GCC
    # toolchain adds, such as -fno-canonical-system-headers.
    return cc_common.get_memory_inefficient_command_line(
        feature_configuration = feature_configuration,
        action_name = action_name,
        variables = variables,
    )

def _local_defines(ctx):
    return [
        ctx.expand_make_variables("local_defines", d, {})
        for d in getattr(ctx.rule.attr, "local_defines", [])
    ]

def _copts(ctx):
    return [
        ctx.expand_make_variables("copts", c, {})
        for c in getattr(ctx.rule.attr, "copts", [])
    ]

def _output_name(ctx, src, extension):
    # Unique per target and source (two targets may compile one source);
    # a source of another repository has a short_path starting with "../".
    path = src.short_path
    if path.startswith("../"):
        path = "external/" + path[3:]
    return "%s.heaplint/%s.heaplint.%s" % (ctx.label.name, path, extension)

def _providers(ctx, reports, fixes):
    deps = [d[_HeaplintInfo] for d in getattr(ctx.rule.attr, "deps", []) if _HeaplintInfo in d]
    info = _HeaplintInfo(
        reports = depset(reports, transitive = [d.reports for d in deps]),
        fixes = depset(fixes, transitive = [d.fixes for d in deps]),
    )
    return [info, OutputGroupInfo(report = info.reports, fixes = info.fixes)]

def _heaplint_aspect_impl(target, ctx):
    if CcInfo not in target or not hasattr(ctx.rule.attr, "srcs"):
        return _providers(ctx, [], [])

    werror = ctx.var.get("heaplint_werror", "0") in ["1", "true", "True", "yes"]
    report_format = ctx.var.get("heaplint_format", "text")
    if report_format not in _FORMATS:
        fail("--define=heaplint_format=%s: one of %s" % (report_format, ", ".join(_FORMATS.keys())))

    cc_toolchain = find_cpp_toolchain(ctx)
    feature_configuration = cc_common.configure_features(
        ctx = ctx,
        cc_toolchain = cc_toolchain,
        requested_features = ctx.features,
        unsupported_features = ctx.disabled_features,
    )
    compilation_context = target[CcInfo].compilation_context
    cpp = ctx.fragments.cpp
    copts = _copts(ctx)
    c_flags = _toolchain_flags(ctx, cc_toolchain, feature_configuration, ACTION_NAMES.c_compile,
                               cpp.copts + cpp.conlyopts + copts, compilation_context)
    cxx_flags = _toolchain_flags(ctx, cc_toolchain, feature_configuration, ACTION_NAMES.cpp_compile,
                                 cpp.copts + cpp.cxxopts + copts, compilation_context)

    # The headers the source may include: the target's and its deps'
    # (compilation_context.headers is transitive), and the toolchain's.
    headers = depset(transitive = [compilation_context.headers, cc_toolchain.all_files])

    config_files = ctx.files._config
    if len(config_files) != 1:
        fail("--@heaplint//:config names %d files; it takes one heaplint configuration" % len(config_files))
    config = config_files[0]

    reports = []
    fixes = []
    for src in _sources(ctx):
        report = ctx.actions.declare_file(_output_name(ctx, src, _FORMATS[report_format]))
        fix = ctx.actions.declare_file(_output_name(ctx, src, "yaml"))
        args = ctx.actions.args()
        args.add(ctx.file._runner)
        args.add_all([report, fix, report_format, "1" if werror else "0", config, src, "--"])
        args.add_all(c_flags if src.extension in _C_EXTENSIONS else cxx_flags)
        ctx.actions.run(
            executable = "/bin/sh",
            arguments = [args],
            inputs = depset([src, ctx.file._runner, config], transitive = [headers]),
            outputs = [report, fix],
            # --action_env=HEAPLINT=... and PATH reach the action.
            use_default_shell_env = True,
            mnemonic = "Heaplint",
            progress_message = "heaplint %s" % src.short_path,
        )
        reports.append(report)
        fixes.append(fix)

    return _providers(ctx, reports, fixes)

heaplint_aspect = aspect(
    implementation = _heaplint_aspect_impl,
    attr_aspects = ["deps"],
    attrs = {
        "_cc_toolchain": attr.label(default = Label("@bazel_tools//tools/cpp:current_cc_toolchain")),
        "_config": attr.label(default = Label("//:config"), allow_files = True),
        "_runner": attr.label(
            default = Label("//:run_heaplint.sh"),
            allow_single_file = True,
        ),
    },
    fragments = ["cpp"],
    toolchains = ["@bazel_tools//tools/cpp:toolchain_type"],
)
