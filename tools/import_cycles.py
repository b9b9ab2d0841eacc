"""Lists the import cycles of the judge package, counting imports inside functions, and the
imports that close each one: a check of progress towards the layers in pyproject.toml's
[tool.importlinter] contract (which CI enforces with `lint-imports`).

    python3 tools/import_cycles.py        # exit 1 while any cycle remains
"""

from __future__ import annotations

import sys
from pathlib import Path

import grimp

# The checkout's own package, not an installed copy of another one.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The graph's strongly connected components of more than one module (Tarjan's algorithm,
    iterative: the package is deep enough to matter for recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    work.append((target, iter(sorted(graph.find_modules_directly_imported_by(target)))))
                elif target in stack:
                    low[module] = min(low[module], index[target])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def add_package_inits(graph: grimp.ImportGraph) -> None:
    """Importing ``judge.a.b`` runs ``judge/a/__init__.py`` first: an import of a module is an
    import of each package above it, too (but the importer's own packages, already running)."""
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            parts = imported.split(".")
            for end in range(2, len(parts)):
                package = ".".join(parts[:end])
                if package in graph.modules and not (importer + ".").startswith(package + "."):
                    graph.add_import(importer=importer, imported=package)


def main() -> int:
    # An import only for type annotations (under `if TYPE_CHECKING:`) is no dependency at run time.
    graph = grimp.build_graph("judge", cache_dir=None, exclude_type_checking_imports=True)
    add_package_inits(graph)
    found = cycles(graph)
    for component in found:
        members = set(component)
        print(f"{len(component)} modules: {', '.join(component)}")
        for module in component:
            for target in sorted(graph.find_modules_directly_imported_by(module) & members):
                for detail in graph.get_import_details(importer=module, imported=target):
                    print(f"  {module}:{detail['line_number']} -> {target}   {detail['line_contents']}")
    print(f"{len(found)} cycle(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
