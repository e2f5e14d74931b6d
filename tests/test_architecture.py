"""The import contract and the size limits, read from the source with `ast` (nothing imported).

- `jdr.cli` and `jdr.web` import no `jdr.systems` module: systems are found through the registry.
- A system imports, of `jdr`, only `jdr.core`, `jdr.dice`, `jdr.names`, `jdr.errors`,
  `jdr.render.safe` and its own package: never another system, never a front end or a renderer.
- No module in `src` is over 600 lines; no function is over 40 body lines (the statements after
  the docstring, blank and comment-only lines not counted; a nested function counts in its
  parent too).

Every import counts, at the top of a module or inside a function, relative ones resolved.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "jdr"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 40
SYSTEM_MAY_IMPORT = ("jdr.core", "jdr.dice", "jdr.names", "jdr.errors", "jdr.render.safe")


def modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = modules()


def _is_package(name: str) -> bool:
    return MODULES.get(name, Path()).name == "__init__.py"


def imports(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """Every `jdr` module `name` imports (absolute, dotted), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if _is_package(name) else name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:  # `from jdr.render import safe` imports jdr.render.safe
                sub = f"{target}.{alias.name}"
                yield (sub if sub in MODULES else target), node.lineno


def under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _system_of(module: str) -> str | None:
    parts = module.split(".")
    return ".".join(parts[:3]) if under(module, "jdr.systems") and len(parts) >= 3 else None


def test_modules_found() -> None:
    assert "jdr.cli.main" in MODULES and "jdr.core.usecase" in MODULES
    assert any(_system_of(m) for m in MODULES)


def test_front_ends_import_no_system() -> None:
    bad = [f"{name}:{line} importe {target}"
           for name, path in MODULES.items()
           if under(name, "jdr.cli") or under(name, "jdr.web")
           for target, line in imports(name, path) if under(target, "jdr.systems")]
    assert not bad, "\n".join(bad)


def system_violations() -> list[str]:
    bad = []
    for name, path in MODULES.items():
        own = _system_of(name)
        if own is None:
            continue
        for target, line in imports(name, path):
            if not under(target, "jdr") or under(target, own):
                continue
            if not any(under(target, allowed) for allowed in SYSTEM_MAY_IMPORT):
                bad.append(f"{name}:{line} importe {target}")
    return bad


def test_systems_import_only_core_dice_and_shared_helpers() -> None:
    bad = system_violations()
    assert not bad, "\n".join(bad)


def test_no_module_over_600_lines() -> None:
    bad = []
    for name, path in MODULES.items():
        count = len(path.read_text(encoding="utf-8").splitlines())
        if count > MAX_MODULE_LINES:
            bad.append(f"{name} : {count} lignes")
    assert not bad, "\n".join(bad)


def body_lines(node: ast.FunctionDef | ast.AsyncFunctionDef, source: list[str]) -> int:
    """Lines of the body after the docstring, blank and comment-only lines left out."""
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    if not body:
        return 0
    first, last = body[0].lineno, node.end_lineno or body[-1].lineno
    lines = source[first - 1 : last]
    return sum(1 for line in lines if line.strip() and not line.strip().startswith("#"))


def long_functions() -> list[tuple[str, int]]:
    found = []
    for name, path in MODULES.items():
        source = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(source))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                count = body_lines(node, source)
                if count > MAX_FUNCTION_LINES:
                    found.append((f"{name}.{node.name} (ligne {node.lineno})", count))
    return found


def test_body_lines_counts_statements_only() -> None:
    source = ['def f():', '    """Doc.', '    """', '', '    # note', '    a = 1', '', '    return a']
    (node,) = ast.parse("\n".join(source)).body
    assert isinstance(node, ast.FunctionDef)
    assert body_lines(node, source) == 2


def test_no_function_over_40_lines() -> None:
    bad = [f"{where} : {count} lignes" for where, count in long_functions()]
    assert not bad, "\n".join(bad)
