"""Sheet files (SHEETS.md): YAML read and written round trip, validated by a per-system model.

- Reading keeps the person's comments, key order and spelling (ruamel.yaml round trip).
- Validation reports every problem at once, one French line each: field, value, allowed range.
- Writing goes to a temporary file in the same folder, then `os.replace`: a crash never leaves
  half a sheet.
- A change that only replaces whole numbers already written (hit points after a blow, XP) is
  written by rewriting those numbers in the text it was read from (`Edits`), not by writing the
  whole tree out again: ruamel's writer was a fifth of a server's time per action (issue 18),
  and the person's layout is kept to the character.
"""

from __future__ import annotations

import io
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, ValidationError
from pydantic_core import PydanticCustomError

from jdr.core.edits import Edits
from jdr.core.frozen import frozen
from jdr.errors import SheetError
from jdr.names import normalize


def _no_pydantic_plugins() -> None:
    """jdr uses no pydantic plugin: the first model pydantic builds would otherwise import
    `importlib.metadata` and read every installed distribution's entry points to find some, a
    third of what a `jdr test FICHE` adds to `import pydantic` (issue 18). Unless
    `PYDANTIC_DISABLE_PLUGINS` names some to leave out (the person wants the others then), the
    plugin loader is one that finds none, as pydantic's own `PYDANTIC_DISABLE_PLUGINS=__all__`
    does, without the import. A loader already imported (a plugin in use) is kept."""
    import sys
    import types

    name = "pydantic.plugin._loader"
    if name in sys.modules or os.environ.get("PYDANTIC_DISABLE_PLUGINS", "__all__") not in (
            "__all__", "1", "true"):
        return
    loader = types.ModuleType(name, "No pydantic plugin (jdr.core.sheet._no_pydantic_plugins).")
    loader.get_plugins = tuple  # type: ignore[attr-defined]  # tuple() == (): no plugin
    sys.modules[name] = loader


_no_pydantic_plugins()  # before the first model below (importing pydantic loads no plugin)

# ------------------------------------------------------------------ value types


def _whole(value: Any) -> Any:
    """Whole numbers only (SHEETS.md): refuse booleans, floats and text before anything else."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise PydanticCustomError(
            "nombre_entier", "« {value} » n'est pas un nombre entier", {"value": value}
        )
    return int(value)


@frozen
class Bounded(AfterValidator):
    """The validator `InRange` returns, keeping its bounds for the sheet form (`core.sheetform`)."""

    lo: int = 0
    hi: int | None = None


def InRange(lo: int, hi: int | None = None) -> AfterValidator:
    """Pydantic metadata: an int in [lo, hi], whose error names the whole allowed range.

    Use as `Annotated[int, WHOLE, InRange(0, 10)]` (or the `Int` alias: `Annotated[Int, InRange(0, 10)]`):
    a plain annotation that mypy reads, no `type: ignore`."""

    def check(value: int) -> int:
        if value < lo or (hi is not None and value > hi):
            allowed = f"de {lo} à {hi}" if hi is not None else f"au moins {lo}"
            raise PydanticCustomError(
                "hors_limites", "{value} hors limites (autorisé : {allowed})",
                {"value": value, "allowed": allowed},
            )
        return value

    return Bounded(check, lo, hi)


WHOLE = BeforeValidator(_whole)
Int = Annotated[int, WHOLE]


def NormalizedKeys(where: str) -> BeforeValidator:
    """Pydantic metadata for a dict whose keys are names (D-ALL.01):
    `Annotated[dict[str, Annotated[Int, InRange(0, 10)]], NormalizedKeys("competences")]`."""
    return BeforeValidator(lambda v: normalized_keys(v, where))


def _pool(value: Any) -> Any:
    """`pv: 30` means `{max: 30, actuels: 30}` (SHEETS.md)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return {"max": value, "actuels": value}
    return value


class Pool(BaseModel):
    """Hit points and other pools: `{max: N, actuels: N}`."""

    model_config = ConfigDict(extra="allow", defer_build=True)
    max: Annotated[Int, InRange(0)]
    actuels: Annotated[Int, InRange(-1000)]


PoolField = Annotated[Pool, BeforeValidator(_pool)]


def _genre(value: Any) -> Any:
    """`genre: f` / `m` / `n` (or `féminin`, `masculin`, `neutre`, any case): how messages agree."""
    from jdr.core.french import parse_genre

    try:
        return parse_genre(value)
    except ValueError:
        raise PydanticCustomError(
            "genre", "« {value} » : genre inconnu (f pour féminin, m pour masculin, n pour neutre)",
            {"value": value}) from None


# `genre: GenreField = None` on every system's sheet model (docs/fiches.md)
GenreField = Annotated[Literal["f", "m"] | None, BeforeValidator(_genre)]


def normalized_keys(value: Any, where: str) -> Any:
    """Turn `{Dextérité: 4}` into `{dexterite: 4}`; two spellings of one name are an error."""
    if not isinstance(value, Mapping):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        norm = normalize(str(key))
        if norm in out:
            raise PydanticCustomError(
                "doublon", "« {key} » est écrit deux fois dans {where}",
                {"key": str(key), "where": where},
            )
        out[norm] = item
    return out


def NormalizedDict(value_type: Any, where: str) -> Any:
    return Annotated[dict[str, value_type], BeforeValidator(lambda v: normalized_keys(v, where))]


# ------------------------------------------------------------------ French errors

_MESSAGES: dict[str, str] = {
    "missing": "champ obligatoire absent",
    "dict_type": "doit être une table (clé: valeur)",
    "list_type": "doit être une liste",
    "string_type": "doit être un texte",
    "int_type": "doit être un nombre entier",
    "int_parsing": "doit être un nombre entier",
    "bool_type": "doit être vrai ou faux (true/false)",
    "bool_parsing": "doit être vrai ou faux (true/false)",
    "literal_error": "valeur non permise",
    "model_type": "doit être une table (clé: valeur)",
    "model_attributes_type": "doit être une table (clé: valeur)",
    "extra_forbidden": "clé inconnue",
}


def french_problems(error: ValidationError) -> list[str]:
    """One French line per problem: field, value, what is allowed."""
    lines: list[str] = []
    for e in error.errors():
        loc = ".".join(str(p) for p in e["loc"] if not str(p).startswith("function-"))
        loc = loc.replace(".[key]", "")
        kind = e["type"]
        if kind in _MESSAGES:
            msg = _MESSAGES[kind]
            if kind == "literal_error":
                expected = e.get("ctx", {}).get("expected", "")
                msg += f" (autorisé : {expected})"
            value = e.get("input")
            shown = "" if kind == "missing" or isinstance(value, dict) else f" = {value!r}"
            lines.append(f"{loc}{shown} : {msg}")
        else:
            msg = e["msg"]
            if msg.startswith("Value error, "):
                msg = msg[len("Value error, ") :]
            for part in msg.split("\n"):
                lines.append(f"{loc} : {part}" if loc else part)
    return lines


# ------------------------------------------------------------------ YAML document


# The characters YAML does not allow (ruamel's `Reader.NON_PRINTABLE`, written as the complement
# of the allowed ones): the same set, written as the small ranges it is, compiles ten times
# faster, once per command that reads a sheet (a test checks both find the same characters).
NOT_ALLOWED = "[\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x84\x86-\x9F\uD800-\uDFFF\uFFFE\uFFFF]"


@cache
def _reader() -> Any:
    from ruamel.yaml.reader import Reader
    from ruamel.yaml.util import RegExp

    class PrintableReader(Reader):
        """ruamel's reader, with its set of refused characters written short."""

        NON_PRINTABLE = RegExp(NOT_ALLOWED)

    return PrintableReader


def _yaml() -> Any:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.Reader = _reader()
    yaml.preserve_quotes = True
    yaml.width = 100
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def to_plain(value: Any) -> Any:
    """ruamel's round-trip types → plain dict/list/int/str, for validation."""
    if isinstance(value, Mapping):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [to_plain(v) for v in value]
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str(value)
    return value


MAX_SHEET_BYTES = 1_000_000

_OS_REASONS = {
    "ENAMETOOLONG": "nom de fichier ou chemin trop long",
    "EACCES": "permission refusée",
    "EPERM": "opération non permise",
    "ENOTDIR": "un élément du chemin n'est pas un dossier",
    "ELOOP": "trop de liens symboliques",
    "EISDIR": "c'est un dossier",
    "ENOENT": "fichier introuvable",
    "EIO": "erreur d'entrée-sortie",
    "ENOSPC": "disque plein",
    "EROFS": "système de fichiers en lecture seule",
    "EEXIST": "le fichier existe déjà",
}


def os_reason(exc: BaseException) -> str:
    """A system error in French (the OS's own `strerror` is English): what went wrong."""
    if isinstance(exc, ValueError):  # e.g. "embedded null byte"
        return "caractère nul ou invalide dans le chemin"
    code = getattr(exc, "errno", None)
    import errno as errno_names

    name = errno_names.errorcode.get(code, "") if isinstance(code, int) else ""
    return _OS_REASONS.get(name, f"erreur système {name or code}")


def shown_path(path: str | Path, limit: int = 120) -> str:
    """A path as a person reads it in a message: control characters shown, long paths cut."""
    from jdr.render.safe import clean

    text = str(path)
    if len(text) > limit:
        text = text[: limit // 2] + "…" + text[-limit // 2 :]
    return clean(text)


class SheetDocument:
    """A sheet file as the person wrote it, ready to be updated in place."""

    def __init__(self, path: Path, data: Any, source: str | None = None) -> None:
        self.path = path
        self.data = data
        self.edits = Edits(source) if source is not None else None

    @classmethod
    def load(cls, path: str | Path) -> SheetDocument:
        """Read a sheet file; every failure is one French `SheetError` naming the file (a path
        too long, a NUL byte, no permission, a folder, a FIFO or device, over 1 MB, not UTF-8,
        ...), never an OSError. Only regular files are read, and never past the size limit."""
        p = Path(path)
        try:
            raw = _read_regular(p)
        except FileNotFoundError:
            raise SheetError(f"fiche introuvable : {shown_path(p)}") from None
        except (OSError, ValueError) as exc:
            raise SheetError(f"{shown_path(p)} : lecture impossible ({os_reason(exc)})") from None
        if len(raw) > MAX_SHEET_BYTES:
            raise SheetError(f"{shown_path(p)} : fiche trop grande (plus de 1 Mo)")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise SheetError(f"{shown_path(p)} : le fichier n'est pas du texte UTF-8") from None
        return cls.from_text(text, p)

    @classmethod
    def from_text(cls, text: str, path: Path) -> SheetDocument:
        if len(text) > MAX_SHEET_BYTES:
            raise SheetError(f"{shown_path(path)} : fiche trop grande (plus de 1 Mo)")
        from ruamel.yaml.error import YAMLError

        try:
            data = load_checked(text, path)
        except YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f" ligne {mark.line + 1}, colonne {mark.column + 1}" if mark else ""
            problem = getattr(exc, "problem", None) or "syntaxe invalide"
            raise SheetError(f"{shown_path(path)} :{where} : YAML invalide ({problem})") from None
        if not isinstance(data, Mapping):
            raise SheetError(f"{shown_path(path)} : une fiche doit être une table YAML (clé: valeur)")
        return cls(path, data, text)

    @property
    def system_id(self) -> str:
        value = self.data.get("systeme")
        if value is None:
            raise SheetError(f"{self.path} : champ « systeme » absent (identifiant : jdr systems)")
        return normalize(str(value))

    def plain(self) -> dict[str, Any]:
        result = to_plain(self.data)
        assert isinstance(result, dict)
        return result

    # -- updates -----------------------------------------------------------

    def _key(self, mapping: Any, name: str) -> str:
        """The key as the person spelled it, or the canonical name for a new key."""
        wanted = normalize(name)
        for key in mapping:
            if normalize(str(key)) == wanted:
                return str(key)
        return name

    def _noted(self, node: Any, key: Any, path: tuple[str, ...], value: Any) -> None:
        if self.edits is not None:
            self.edits.note(self.data, node, key, path, value)

    def changed_shape(self) -> None:
        """A change of the tree's shape: the next `dump` writes the whole tree out."""
        if self.edits is not None:
            self.edits.usable = False

    def set(self, path: tuple[str, ...], value: Any) -> None:
        """Set a value, creating tables on the way; keeps the person's spelling of keys."""
        from ruamel.yaml.comments import CommentedMap

        node: Any = self.data
        keys: list[str] = []
        for name in path[:-1]:
            key = self._key(node, name)
            child = node.get(key)
            if not isinstance(child, Mapping):
                self.changed_shape()
                child = CommentedMap()
                node[key] = child
            node = child
            keys.append(str(key))
        key = self._key(node, path[-1])
        self._noted(node, key, (*keys, str(key)), value)
        node[key] = value

    def set_pool(self, name: str, current: int) -> None:
        """Set `actuels` of a pool; a bare `pv: 30` becomes `{max: 30, actuels: N}`."""
        from ruamel.yaml.comments import CommentedMap

        key = self._key(self.data, name)
        pool: Any = self.data.get(key)
        if not isinstance(pool, Mapping):
            self.changed_shape()
            new = CommentedMap()
            new["max"] = int(pool) if isinstance(pool, int) else current
            new["actuels"] = current
            new.fa.set_flow_style()
            self.data[key] = new
        else:
            target: Any = pool
            inner = self._key(pool, "actuels")
            self._noted(target, inner, (str(key), str(inner)), current)
            target[inner] = current

    def dump(self) -> str:
        if self.edits is not None:
            rewritten = self.edits.text(self.data)
            if rewritten is not None:
                return rewritten
        stream = io.StringIO()
        _yaml().dump(self.data, stream)
        return stream.getvalue()

    def save(self) -> None:
        """Atomic write: temporary file in the same folder, fsync, then rename."""
        write_atomic(self.path, self.dump())


def write_atomic(path: Path, text: str) -> None:
    """See `jdr.core.files.write_atomic`: links kept, read-only refused, no temporary left."""
    from jdr.core.files import write_atomic as write

    write(path, text)


def _read_regular(path: Path) -> bytes:
    """The bytes of a regular file, at most MAX_SHEET_BYTES + 1 of them: a FIFO, a device
    (`/dev/zero`), a folder is refused before anything is read, and so is a file too big."""
    import stat

    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise SheetError(f"{shown_path(path)} est un dossier, pas une fiche")
        if not stat.S_ISREG(info.st_mode):
            raise SheetError(f"{shown_path(path)} n'est pas un fichier ordinaire (tube, périphérique…)")
        if info.st_size > MAX_SHEET_BYTES:
            raise SheetError(f"{shown_path(path)} : fiche trop grande (plus de 1 Mo)")
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_SHEET_BYTES:
            chunk = os.read(fd, MAX_SHEET_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


MAX_DEPTH = 50
MAX_NODES = 100_000
MAX_NUMBER = 30


class Limits:
    """The YAML events of a sheet, checked as they come, before anything is built from them:
    nesting depth, total nodes counting what aliases would expand to (an alias bomb is refused,
    not expanded), and the length of numbers (a 5,000-digit integer). Each refusal is one French
    line, fast."""

    def __init__(self, path: Path) -> None:
        import re

        self.path = path
        self.number = re.compile(r"[-+]?[0-9][0-9_]*")
        self.sizes: dict[str, int] = {}
        self.stack: list[list[Any]] = []  # [anchor, size so far]
        self.total = 0

    def see(self, event: Any) -> None:
        kind = type(event).__name__
        stack = self.stack
        if kind in ("MappingStartEvent", "SequenceStartEvent"):
            if len(stack) >= MAX_DEPTH:
                raise SheetError(f"{shown_path(self.path)} : imbrication trop profonde "
                                 f"(au plus {MAX_DEPTH} niveaux)")
            stack.append([event.anchor, 1])
            return
        if kind in ("MappingEndEvent", "SequenceEndEvent"):
            anchor, size = stack.pop()
        elif kind == "ScalarEvent":
            value = event.value
            if event.style is None and len(value) > MAX_NUMBER and self.number.fullmatch(value):
                raise SheetError(f"{shown_path(self.path)} : nombre trop long ({len(value)} "
                                 f"chiffres ; au plus {MAX_NUMBER})")
            anchor, size = event.anchor, 1
        elif kind == "AliasEvent":
            anchor, size = None, self.sizes.get(event.anchor, 1)
        else:
            return
        if anchor:
            self.sizes[anchor] = size
        self.total += size if kind == "AliasEvent" else (1 if kind == "ScalarEvent" else 0)
        if stack:
            stack[-1][1] += size
        if self.total > MAX_NODES or (stack and stack[-1][1] > MAX_NODES):
            raise SheetError(f"{shown_path(self.path)} : fiche trop grande une fois développée "
                             f"(plus de {MAX_NODES} valeurs : alias en cascade ?)")


def check_limits(text: str, path: Path) -> None:
    """`Limits` over the events of a text, without building anything."""
    from ruamel.yaml import YAML

    limits = Limits(path)
    for event in YAML(typ="rt").parse(text):
        limits.see(event)


def load_checked(text: str, path: Path) -> Any:
    """The round-trip data of a sheet, read in one pass: each event the parser hands to the
    composer is checked first (`Limits`), so a refused sheet is refused before its nodes are
    built, as `check_limits` then a load would, at half the cost."""
    yaml = _yaml()
    limits = Limits(path)

    class Checked(yaml.Parser):  # type: ignore[name-defined,misc]  # ruamel's parser, one more step
        def get_event(self) -> Any:
            event = super().get_event()
            limits.see(event)
            return event

    yaml.Parser = Checked
    return yaml.load(text)


def validate(model: type[BaseModel], doc: SheetDocument) -> Any:
    """Validate a document with a system's model, or raise one SheetError with every problem."""
    try:
        return model.model_validate(doc.plain())
    except ValidationError as exc:
        problems = french_problems(exc)
        head = f"{doc.path} : {len(problems)} problème(s)"
        raise SheetError(head + "\n" + "\n".join(f"  - {p}" for p in problems), problems) from None
