#!/usr/bin/env bash
# What an app gets when it adds tabconfig's Swift client, checked with Tests/Clients/Consumer, a package that
# depends on Clients/Swift by path and on nothing else. Needs no network. It
#  1. extracts the ```swift blocks of README.md and docs/ios-client.md (conventions below) into
#     Tests/Clients/Consumer/Sources/DocExamples/Generated/, and checks each dependency block's manifest;
#  2. builds the consumer package: the plain dependency (target Consumer, run once), the client's
#     TabBarControllerAdapter compiled against a UIKit stand-in outside the client's module (UIKitAdapterCheck),
#     and the docs' examples against the client and the UIKit and SwiftUI stand-ins (DocExamples);
#  3. checks that the consumer's Package.resolved is absent or lists no pins, and that its dependency graph is the
#     client alone, with no dependency of its own; prints the number of pins;
#  4. checks that no module of the server or of the server's dependencies (MicroHTTP, TabBarAPI, TabBarStore,
#     TabBarModel, NIO*, PostgresNIO, JWTKit, Crypto, …) was built, and that every module built is the client's or
#     the consumer's own; prints the modules built.
# Exits non-zero, saying why, on the first failure (a failing dependency block of the docs: at the end).
#
# Conventions for the ```swift blocks of the docs:
#  - A block right under `<!-- example: skip (REASON) -->` is not checked (as in Tests/Docs/doc_examples.py).
#  - A dependency block is one whose first line of code starts with `.package(`. Its `.package(…)` items are an
#    app's package dependencies, its `.product(…)` items the app target's dependencies (an item may span lines;
#    comments and blank lines are ignored; any other line is an error). They are written into the Package.swift of
#    a throwaway app package and checked with `swift package dump-package`, which loads and validates the manifest
#    without resolving anything: each product must name a declared package, each product must be a library product
#    of Clients/Swift, and a package whose identity is this repository's root package (`tabconfig`) must have that
#    product in the root Package.swift too (that is what an app depending on the repository gets).
#  - Every other block is Swift source, one file per block, all in one module (DocExamples), so a later block may use
#    what an earlier one declares. It is compiled as written, with `#sourceLocation` pointing at the doc, so errors
#    name the doc's file and line. A line `// TypeName` alone (one UpperCamelCase name, e.g. `// SceneDelegate`)
#    starts a fragment: the lines after it, up to the next such line or the block's end, are members of the app's
#    type TypeName and are compiled as `extension TypeName { … }`.
#  - Names that are the app's own (`Screens`, the `SceneDelegate` of fragments and its `coordinator`) are declared in
#    the hand-written Tests/Clients/Consumer/Sources/DocExamples/AppSide.swift.
set -euo pipefail
cd "$(dirname "$0")/.."
package=Tests/Clients/Consumer
client=Clients/Swift
docs=(README.md docs/ios-client.md)

fail() {
  echo "client-consumer: FAILED: $*" >&2
  exit 1
}

echo "== the docs' Swift blocks into $package/Sources/DocExamples/Generated (${docs[*]})"
# A failing dependency block fails the run at its end, after the build has shown what else fails.
docs_status=0
python3 - "$package" "$client" "${docs[@]}" <<'PY' || docs_status=$?
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

package, client, docs = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
generated = package / "Sources/DocExamples/Generated"
FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
SKIP = re.compile(r"^\s*<!--\s*example:\s*skip\s*(?:\((.*)\))?\s*-->\s*$")
FRAGMENT = re.compile(r"^//\s*([A-Z][a-z][A-Za-z0-9]*)\s*$")
failures = []


def blocks(path):
    """(line of the opening fence, lines of code, skip reason or None) for each ```swift block of `path`."""
    lines = Path(path).read_text().splitlines()
    index = 0
    while index < len(lines):
        fence = FENCE.match(lines[index])
        if not fence:
            index += 1
            continue
        start, indent, language = index, fence.group(1), fence.group(2)
        index += 1
        code = []
        while index < len(lines) and not re.match(r"^\s*```\s*$", lines[index]):
            line = lines[index]
            code.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            index += 1
        index += 1
        if language == "swift":
            skip = SKIP.match(lines[start - 1]) if start > 0 else None
            yield start + 1, code, (skip.group(1) or "no reason given") if skip else None


def dump(manifest_text, name):
    """`swift package dump-package` of a package whose Package.swift is `manifest_text`, in a directory of its own:
    it loads and validates the manifest and resolves nothing."""
    with tempfile.TemporaryDirectory(prefix=f"client-consumer-{name}.") as directory:
        Path(directory, "Package.swift").write_text(manifest_text)
        run = subprocess.run(["swift", "package", "--package-path", directory, "dump-package"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            return None, (run.stderr or run.stdout).strip()
        return json.loads(run.stdout), None


def libraries(manifest):
    return sorted(p["name"] for p in manifest["products"] if "library" in p["type"])


client_manifest, error = dump((client / "Package.swift").read_text(), "client")
if error:
    sys.exit(f"client-consumer: {client}/Package.swift does not load: {error}")
root_manifest, error = dump(Path("Package.swift").read_text(), "root")
if error:
    sys.exit(f"client-consumer: Package.swift does not load: {error}")
client_products, root_products = libraries(client_manifest), libraries(root_manifest)
root_identity = root_manifest["name"].lower()


def check_dependency_block(where, code):
    items, current, depth = [], None, 0
    for number, line in enumerate(code):
        stripped = line.strip()
        if current is None:
            if not stripped or stripped.startswith("//"):
                continue
            if not (stripped.startswith(".package(") or stripped.startswith(".product(")):
                failures.append(f"{where}: line {number + 1} of a dependency block is neither `.package(…)` nor "
                                f"`.product(…)`: {stripped}")
                return
            current = []
        current.append(stripped)
        depth += stripped.count("(") - stripped.count(")")
        if depth <= 0:
            items.append(" ".join(current).rstrip(","))
            current, depth = None, 0
    if current is not None:
        failures.append(f"{where}: unbalanced parentheses in a dependency block")
        return
    packages = [item for item in items if item.startswith(".package(")]
    products = [item for item in items if item.startswith(".product(")]
    manifest = "\n".join([
        "// swift-tools-version:6.0",
        "import PackageDescription",
        "let package = Package(",
        '    name: "App",',
        "    platforms: [.iOS(.v16)],",
        "    dependencies: [",
        *[f"        {item}," for item in packages],
        "    ],",
        "    targets: [",
        '        .target(name: "App", dependencies: [',
        *[f"            {item}," for item in products],
        "        ]),",
        "    ]",
        ")",
        "",
    ])
    failed_before = len(failures)
    app, error = dump(manifest, "app")
    if error:
        failures.append(f"{where}: the dependency block does not make a valid manifest:\n{manifest}\n{error}")
        return
    for target_dependency in app["targets"][0]["dependencies"]:
        if "product" not in target_dependency:
            continue
        name, package_name = target_dependency["product"][0], target_dependency["product"][1]
        if name not in client_products:
            failures.append(f"{where}: product {name} is not a library product of {client} "
                            f"(its products: {', '.join(client_products)})")
        if (package_name or name).lower() == root_identity and name not in root_products:
            failures.append(
                f"{where}: `.product(name: \"{name}\", package: \"{package_name}\")` names this repository's root "
                f"package, which has no product {name} (its library products: {', '.join(root_products)}); "
                f"{name} is a product of {client}, a package of its own")
    named = ", ".join(p["product"][0] for p in app["targets"][0]["dependencies"] if "product" in p) or "none"
    verdict = "ok" if len(failures) == failed_before else "FAILED (below)"
    print(f"{where}: dependency block: {len(packages)} package(s), product(s) {named}: {verdict}")


def swift_file(doc, line, code):
    """The generated source of a Swift block: `// TypeName` fragments become extensions of TypeName."""
    out = [f"// Generated by scripts/client-consumer.sh from {doc} (the block at line {line}): do not edit.",
           f'#sourceLocation(file: "{doc}", line: {line + 1})']
    fragments = []
    in_extension = False
    for number, text in enumerate(code):
        fragment = FRAGMENT.match(text.strip())
        if fragment:
            if in_extension:
                out += ["#sourceLocation()", "}"]
            out += ["#sourceLocation()", f"extension {fragment.group(1)} {{",
                    f'#sourceLocation(file: "{doc}", line: {line + number + 2})']
            fragments.append(fragment.group(1))
            in_extension = True
            continue
        out.append(text)
    if in_extension:
        out += ["#sourceLocation()", "}"]
    else:
        out.append("#sourceLocation()")
    return "\n".join(out) + "\n", fragments


generated.mkdir(parents=True, exist_ok=True)
written = set()
for doc in docs:
    for line, code, skip in blocks(doc):
        where = f"{doc}:{line}"
        first = next((text.strip() for text in code if text.strip() and not text.strip().startswith("//")), "")
        if skip:
            print(f"{where}: SKIP ({skip})")
        elif first.startswith(".package("):
            check_dependency_block(where, code)
        else:
            name = f"{re.sub(r'[^A-Za-z0-9]+', '_', doc.removesuffix('.md'))}_{line}.swift"
            text, fragments = swift_file(doc, line, code)
            target = generated / name
            if not target.exists() or target.read_text() != text:  # unchanged files stay unchanged for the build
                target.write_text(text)
            written.add(name)
            extensions = f", fragments as extensions of {', '.join(fragments)}" if fragments else ""
            print(f"{where}: Swift, {len(code)} lines{extensions}: DocExamples/Generated/{name}")
for stale in generated.iterdir():
    if stale.name not in written:
        stale.unlink()
if failures:
    print("\n".join(failures), file=sys.stderr)
    sys.exit(1)
PY

echo "== swift build --package-path $package"
rm -f "$package/Package.resolved"
# Without --disable-build-manifest-caching, SwiftPM reuses its build plan and misses a source file added to the
# client (a path dependency) since the last build.
swift build --package-path "$package" --disable-build-manifest-caching ||
  fail "the consumer package does not build (the errors above: Consumer is the plain dependency; UIKitAdapterCheck" \
    "the client's UIKit adapter, its TabBarControllerAdapter.swift a link to" \
    "$client/Sources/TabConfigClient/UIKit/TabBarControllerAdapter.swift; DocExamples the docs' examples, at the file" \
    "and line they name)"
bin=$(swift build --package-path "$package" --show-bin-path)
"$bin/Consumer" || fail "the consumer's executable, which only makes a TabBarClient, failed"

echo "== what the client adds to an app"
resolved="$package/Package.resolved"
if [ -e "$resolved" ]; then
  pins=$(python3 -c 'import json, sys; print("\n".join(p["identity"] for p in json.load(open(sys.argv[1]))["pins"]))' \
    "$resolved") || fail "$resolved does not read as a Package.resolved"
else
  pins=""
fi
pin_count=$(printf '%s' "$pins" | grep -c . || true)
echo "consumer's resolved packages: $pin_count ($([ -e "$resolved" ] && echo "$resolved" || echo "no Package.resolved"))"
[ "$pin_count" = 0 ] || fail "adding the client pins packages in an app's Package.resolved: $(echo $pins)"

graph=$(swift package --package-path "$package" show-dependencies --format json) ||
  fail "swift package show-dependencies failed for $package"
python3 - "$graph" "$client" <<'PY' || fail "the consumer's dependency graph is not the client alone (above)"
import json, os, sys
graph, client = json.loads(sys.argv[1]), os.path.realpath(sys.argv[2])
def walk(node, depth=0):
    print(f"{'  ' * depth}{node['identity']} ({os.path.relpath(node['path'])})")
    for child in node["dependencies"]:
        walk(child, depth + 1)
walk(graph)
dependencies = graph["dependencies"]
if len(dependencies) != 1 or os.path.realpath(dependencies[0]["path"]) != client or dependencies[0]["dependencies"]:
    sys.exit("client-consumer: the consumer's dependencies should be the client alone, with none of its own")
PY

echo "== the modules the consumer's build made"
checkouts="$package/.build/checkouts"
if [ -d "$checkouts" ] && [ -n "$(ls -A "$checkouts")" ]; then
  fail "the consumer's build checked out packages: $(ls "$checkouts" | tr '\n' ' ')"
fi
# Every .swiftmodule anywhere under .build (the module cache too), named without the cache's -HASH suffix.
all_modules=$(find "$package/.build" -name '*.swiftmodule' -printf '%f\n' | sed -E 's/\.swiftmodule$//; s/-[0-9A-Z]+$//' |
  sort -u)
server=$(echo "$all_modules" |
  grep -E '^(tabconfig|MicroHTTP.*|CMicroHTTPD|TabBarAPI|TabBarStore|TabBarModel|TestSupport|_?NIO.*|PostgresNIO|JWTKit|_?C?Crypto.*)$' ||
  true)
[ -z "$server" ] || fail "the consumer's build has modules of the server or its dependencies: $(echo $server)" \
  "(left by an earlier build of another Package.swift? then rm -rf $package/.build)"
# The modules this build compiles (not the toolchain's, cached): those the build plan SwiftPM wrote puts in Modules/,
# else, without a plan, those in Modules/ (where an earlier build's may linger).
plan="$package/.build/debug.yaml"
if [ -f "$plan" ]; then
  built=$(grep -oE '/Modules/[^/" ]+\.swiftmodule' "$plan" | sed -E 's|.*/||; s/\.swiftmodule$//' | sort -u)
else
  built=$(find "$package/.build" -path '*/Modules/*.swiftmodule' -printf '%f\n' | sed 's/\.swiftmodule$//' | sort -u)
fi
[ -n "$built" ] || fail "no module found under $package/.build"
expected="Consumer DocExamples SwiftUIStub TabConfigClient UIKitAdapterCheck UIKitStub"
unexpected=$(for module in $built; do [[ " $expected " == *" $module "* ]] || echo "$module"; done)
[ -z "$unexpected" ] || fail "the consumer's build made modules that are neither the client's nor its own: $(echo $unexpected)"
echo "modules built: $(echo $built)"
[ "$docs_status" = 0 ] || fail "a dependency block of the docs does not pass (at the top)"
echo "client-consumer: ok (no pins, no checkouts, none of the server's modules)"
