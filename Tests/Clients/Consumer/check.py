#!/usr/bin/env python3
"""What an app gets when it adds tabconfig's Swift client, checked with Tests/Clients/Consumer, a package that depends
on Clients/Swift by path and on nothing else.

    python3 Tests/Clients/Consumer/check.py

Runs from any directory (it works in the repository's root, found from this file's place) and needs no network. It
 1. extracts the ```swift blocks of README.md and docs/ios-client.md (conventions below) into
    Tests/Clients/Consumer/Sources/DocExamples/Generated/, and checks each dependency block's manifest;
 2. builds the consumer package: the plain dependency (target Consumer, run once), the client's
    TabBarControllerAdapter compiled against a UIKit stand-in outside the client's module (UIKitAdapterCheck),
    and the docs' examples against the client and the UIKit and SwiftUI stand-ins (DocExamples);
 3. checks that the consumer's Package.resolved is absent or lists no pins, and that its dependency graph is the
    client alone, with no dependency of its own; prints the number of pins;
 4. checks that no module of the server or of the server's dependencies (MicroHTTP, TabBarAPI, TabBarStore,
    TabBarModel, NIO*, PostgresNIO, JWTKit, Crypto, …) was built, and that every module built is the client's or
    the consumer's own; prints the modules built.
Exits non-zero, saying why, on the first failure (a failing dependency block of the docs: at the end).

Conventions for the ```swift blocks of the docs:
 - A block right under `<!-- example: skip (REASON) -->` is not checked (as in Tests/Docs/doc_examples.py).
 - A dependency block is one whose first line of code starts with `.package(`. Its `.package(…)` items are an
   app's package dependencies, its `.product(…)` items the app target's dependencies (an item may span lines;
   comments and blank lines are ignored; any other line is an error). They are written into the Package.swift of
   a throwaway app package and checked with `swift package dump-package`, which loads and validates the manifest
   without resolving anything: each product must name a declared package, each product must be a library product
   of Clients/Swift, and a package whose identity is this repository's root package (`tabconfig`) must have that
   product in the root Package.swift too (that is what an app depending on the repository gets).
 - Every other block is Swift source, one file per block, all in one module (DocExamples), so a later block may use
   what an earlier one declares. It is compiled as written, with `#sourceLocation` pointing at the doc, so errors
   name the doc's file and line. A line `// TypeName` alone (one UpperCamelCase name, e.g. `// SceneDelegate`)
   starts a fragment: the lines after it, up to the next such line or the block's end, are members of the app's
   type TypeName and are compiled as `extension TypeName { … }`.
 - Names that are the app's own (`Screens`, the `SceneDelegate` of fragments and its `coordinator`) are declared in
   the hand-written Tests/Clients/Consumer/Sources/DocExamples/AppSide.swift.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import traceback
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PACKAGE = "Tests/Clients/Consumer"
CLIENT = "Clients/Swift"
DOCS = ["README.md", "docs/ios-client.md"]
GENERATED = Path(PACKAGE, "Sources/DocExamples/Generated")
GENERATOR = "Tests/Clients/Consumer/check.py"

FENCE = re.compile(r"^(\s*)```(\w*)\s*$")
CLOSING_FENCE = re.compile(r"^\s*```\s*$")
SKIP = re.compile(r"^\s*<!--\s*example:\s*skip\s*(?:\((.*)\))?\s*-->\s*$")
FRAGMENT = re.compile(r"^//\s*([A-Z][a-z][A-Za-z0-9]*)\s*$")

SERVER_MODULE = re.compile(
    r"tabconfig|MicroHTTP.*|CMicroHTTPD|TabBarAPI|TabBarStore|TabBarModel|TestSupport|_?NIO.*|PostgresNIO|JWTKit"
    r"|_?C?Crypto.*")
OWN_MODULES = {"Consumer", "DocExamples", "SwiftUIStub", "TabConfigClient", "UIKitAdapterCheck", "UIKitStub"}


def fail(*words):
    print(f"client-consumer: FAILED: {' '.join(words)}", file=sys.stderr)
    sys.exit(1)


def output_of(command):
    """The standard output of `command` (its standard error passes through); exits with its status if it fails."""
    run = subprocess.run(command, stdout=subprocess.PIPE, text=True)
    if run.returncode != 0:
        sys.exit(run.returncode)
    return run.stdout


# Step 1: the docs' Swift blocks.

class DocsStop(Exception):
    """A manifest the dependency blocks are checked against does not load: no block is looked at."""


@dataclass
class Products:
    """What a dependency block's products are checked against."""
    client: list
    root: list
    root_identity: str


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
        while index < len(lines) and not CLOSING_FENCE.match(lines[index]):
            line = lines[index]
            code.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            index += 1
        index += 1
        if language == "swift":
            skip = SKIP.match(lines[start - 1]) if start > 0 else None
            yield start + 1, code, (skip.group(1) or "no reason given") if skip else None


def dump(manifest_text, name):
    """`swift package dump-package` of a package whose Package.swift is `manifest_text`, in a directory of its own:
    it loads and validates the manifest and resolves nothing. Returns (manifest, None) or (None, error)."""
    with tempfile.TemporaryDirectory(prefix=f"client-consumer-{name}.") as directory:
        Path(directory, "Package.swift").write_text(manifest_text)
        run = subprocess.run(["swift", "package", "--package-path", directory, "dump-package"],
                             capture_output=True, text=True)
        if run.returncode != 0:
            return None, (run.stderr or run.stdout).strip()
        return json.loads(run.stdout), None


def libraries(manifest):
    return sorted(p["name"] for p in manifest["products"] if "library" in p["type"])


def products_to_check_against():
    client_manifest, error = dump(Path(CLIENT, "Package.swift").read_text(), "client")
    if error:
        raise DocsStop(f"client-consumer: {CLIENT}/Package.swift does not load: {error}")
    root_manifest, error = dump(Path("Package.swift").read_text(), "root")
    if error:
        raise DocsStop(f"client-consumer: Package.swift does not load: {error}")
    return Products(libraries(client_manifest), libraries(root_manifest), root_manifest["name"].lower())


def dependency_items(where, code, failures):
    """The `.package(…)` and `.product(…)` items of a dependency block, each on one line; None if it has others."""
    items, current, depth = [], None, 0
    for number, line in enumerate(code):
        stripped = line.strip()
        if current is None:
            if not stripped or stripped.startswith("//"):
                continue
            if not (stripped.startswith(".package(") or stripped.startswith(".product(")):
                failures.append(f"{where}: line {number + 1} of a dependency block is neither `.package(…)` nor "
                                f"`.product(…)`: {stripped}")
                return None
            current = []
        current.append(stripped)
        depth += stripped.count("(") - stripped.count(")")
        if depth <= 0:
            items.append(" ".join(current).rstrip(","))
            current, depth = None, 0
    if current is not None:
        failures.append(f"{where}: unbalanced parentheses in a dependency block")
        return None
    return items


def app_manifest(packages, products):
    """The Package.swift of an app that has `packages` as dependencies and `products` as its target's."""
    return "\n".join([
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


def check_product(where, name, package_name, against, failures):
    if name not in against.client:
        failures.append(f"{where}: product {name} is not a library product of {CLIENT} "
                        f"(its products: {', '.join(against.client)})")
    if (package_name or name).lower() == against.root_identity and name not in against.root:
        failures.append(
            f"{where}: `.product(name: \"{name}\", package: \"{package_name}\")` names this repository's root "
            f"package, which has no product {name} (its library products: {', '.join(against.root)}); "
            f"{name} is a product of {CLIENT}, a package of its own")


def check_dependency_block(where, code, against, failures):
    items = dependency_items(where, code, failures)
    if items is None:
        return
    packages = [item for item in items if item.startswith(".package(")]
    products = [item for item in items if item.startswith(".product(")]
    manifest = app_manifest(packages, products)
    failed_before = len(failures)
    app, error = dump(manifest, "app")
    if error:
        failures.append(f"{where}: the dependency block does not make a valid manifest:\n{manifest}\n{error}")
        return
    named = [dependency["product"] for dependency in app["targets"][0]["dependencies"] if "product" in dependency]
    for product in named:
        check_product(where, product[0], product[1], against, failures)
    verdict = "ok" if len(failures) == failed_before else "FAILED (below)"
    print(f"{where}: dependency block: {len(packages)} package(s), "
          f"product(s) {', '.join(product[0] for product in named) or 'none'}: {verdict}")


def swift_file(doc, line, code):
    """The generated source of a Swift block: `// TypeName` fragments become extensions of TypeName."""
    out = [f"// Generated by {GENERATOR} from {doc} (the block at line {line}): do not edit.",
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


def write_swift_block(doc, line, code):
    """Writes a Swift block into Generated/; returns the file's name."""
    name = f"{re.sub(r'[^A-Za-z0-9]+', '_', doc.removesuffix('.md'))}_{line}.swift"
    text, fragments = swift_file(doc, line, code)
    target = GENERATED / name
    if not target.exists() or target.read_text() != text:  # unchanged files stay unchanged for the build
        target.write_text(text)
    extensions = f", fragments as extensions of {', '.join(fragments)}" if fragments else ""
    print(f"{doc}:{line}: Swift, {len(code)} lines{extensions}: DocExamples/Generated/{name}")
    return name


def extract_docs():
    """Generates DocExamples/Generated/ from the docs and checks their dependency blocks; returns the failures."""
    against = products_to_check_against()
    failures = []
    GENERATED.mkdir(parents=True, exist_ok=True)
    written = set()
    for doc in DOCS:
        for line, code, skip in blocks(doc):
            where = f"{doc}:{line}"
            first = next((text.strip() for text in code if text.strip() and not text.strip().startswith("//")), "")
            if skip:
                print(f"{where}: SKIP ({skip})")
            elif first.startswith(".package("):
                check_dependency_block(where, code, against, failures)
            else:
                written.add(write_swift_block(doc, line, code))
    for stale in GENERATED.iterdir():
        if stale.name not in written:
            stale.unlink()
    return failures


def docs_pass():
    """Step 1; whether it passed. Whatever fails here is reported, and the run goes on."""
    try:
        failures = extract_docs()
    except DocsStop as stop:
        print(stop, file=sys.stderr)
        return False
    except Exception:  # as a crash of the step would: said, and the build still shows what else fails
        traceback.print_exc()
        return False
    if failures:
        print("\n".join(failures), file=sys.stderr)
    return not failures


# Step 2: the build.

def build():
    Path(PACKAGE, "Package.resolved").unlink(missing_ok=True)
    # Without --disable-build-manifest-caching, SwiftPM reuses its build plan and misses a source file added to the
    # client (a path dependency) since the last build.
    if subprocess.run(["swift", "build", "--package-path", PACKAGE, "--disable-build-manifest-caching"]).returncode:
        fail("the consumer package does not build (the errors above: Consumer is the plain dependency; "
             "UIKitAdapterCheck the client's UIKit adapter, its TabBarControllerAdapter.swift a link to "
             f"{CLIENT}/Sources/TabConfigClient/UIKit/TabBarControllerAdapter.swift; DocExamples the docs' "
             "examples, at the file and line they name)")
    bin_path = output_of(["swift", "build", "--package-path", PACKAGE, "--show-bin-path"]).strip()
    if subprocess.run([f"{bin_path}/Consumer"]).returncode:
        fail("the consumer's executable, which only makes a TabBarClient, failed")


# Step 3: what the client adds to an app.

def check_pins():
    resolved = Path(PACKAGE, "Package.resolved")
    pins = []
    if resolved.exists():
        try:
            pins = [pin["identity"] for pin in json.loads(resolved.read_text())["pins"]]
        except (ValueError, KeyError, TypeError) as error:
            print(f"{resolved}: {error!r}", file=sys.stderr)
            fail(f"{resolved} does not read as a Package.resolved")
    print(f"consumer's resolved packages: {len(pins)} ({resolved if resolved.exists() else 'no Package.resolved'})")
    if pins:
        fail(f"adding the client pins packages in an app's Package.resolved: {' '.join(pins)}")


def print_graph(node, depth=0):
    print(f"{'  ' * depth}{node['identity']} ({os.path.relpath(node['path'])})")
    for child in node["dependencies"]:
        print_graph(child, depth + 1)


def check_graph():
    run = subprocess.run(["swift", "package", "--package-path", PACKAGE, "show-dependencies", "--format", "json"],
                         stdout=subprocess.PIPE, text=True)
    if run.returncode != 0:
        fail(f"swift package show-dependencies failed for {PACKAGE}")
    try:
        graph = json.loads(run.stdout)
        print_graph(graph)
        alone = client_alone(graph["dependencies"])
    except (ValueError, KeyError, TypeError):
        traceback.print_exc()
        alone = False
    if not alone:
        fail("the consumer's dependency graph is not the client alone (above)")


def client_alone(dependencies):
    if (len(dependencies) != 1 or os.path.realpath(dependencies[0]["path"]) != os.path.realpath(CLIENT)
            or dependencies[0]["dependencies"]):
        print("client-consumer: the consumer's dependencies should be the client alone, with none of its own",
              file=sys.stderr)
        return False
    return True


# Step 4: the modules the consumer's build made.

def check_no_checkouts():
    checkouts = Path(PACKAGE, ".build/checkouts")
    if checkouts.is_dir() and any(checkouts.iterdir()):
        names = sorted(entry.name for entry in checkouts.iterdir() if not entry.name.startswith("."))
        fail(f"the consumer's build checked out packages: {' '.join(names)}")


def swiftmodules_under(directory):
    """The paths of every *.swiftmodule (file, directory or link) under `directory`, as `find` lists them."""
    for parent, directories, files in os.walk(directory):
        for name in directories + files:
            if name.endswith(".swiftmodule"):
                yield os.path.join(parent, name)


def module_name(path):
    return os.path.basename(path).removesuffix(".swiftmodule")


def check_no_server_modules():
    # Every .swiftmodule anywhere under .build (the module cache too), named without the cache's -HASH suffix.
    every = {re.sub(r"-[0-9A-Z]+$", "", module_name(path)) for path in swiftmodules_under(f"{PACKAGE}/.build")}
    server = sorted(module for module in every if SERVER_MODULE.fullmatch(module))
    if server:
        fail(f"the consumer's build has modules of the server or its dependencies: {' '.join(server)}",
             f"(left by an earlier build of another Package.swift? then rm -rf {PACKAGE}/.build)")


def modules_built():
    # The modules this build compiles (not the toolchain's, cached): those the build plan SwiftPM wrote puts in
    # Modules/, else, without a plan, those in Modules/ (where an earlier build's may linger).
    plan = Path(PACKAGE, ".build/debug.yaml")
    if plan.is_file():
        paths = re.findall(r'/Modules/[^/" ]+\.swiftmodule', plan.read_text(errors="replace"))
    else:
        paths = [path for path in swiftmodules_under(f"{PACKAGE}/.build") if "/Modules/" in path]
    return sorted({module_name(path) for path in paths})


def check_modules_built():
    built = modules_built()
    if not built:
        fail(f"no module found under {PACKAGE}/.build")
    unexpected = [module for module in built if module not in OWN_MODULES]
    if unexpected:
        fail(f"the consumer's build made modules that are neither the client's nor its own: {' '.join(unexpected)}")
    print(f"modules built: {' '.join(built)}")


def main():
    sys.stdout.reconfigure(line_buffering=True)  # our lines stay in order with the output of the commands run
    os.chdir(ROOT)
    print(f"== the docs' Swift blocks into {GENERATED} ({' '.join(DOCS)})")
    # A failing dependency block fails the run at its end, after the build has shown what else fails.
    docs_ok = docs_pass()

    print(f"== swift build --package-path {PACKAGE}")
    build()

    print("== what the client adds to an app")
    check_pins()
    check_graph()

    print("== the modules the consumer's build made")
    check_no_checkouts()
    check_no_server_modules()
    check_modules_built()
    if not docs_ok:
        fail("a dependency block of the docs does not pass (at the top)")
    print("client-consumer: ok (no pins, no checkouts, none of the server's modules)")


if __name__ == "__main__":
    main()
