"""Sheet files handled like a careful tool: locked while an action runs, replaced atomically.

- `locked(paths)`: an exclusive `flock` on every sheet an action will write, taken before the
  sheets are read and held until they are written, in a fixed order (no deadlock). The lock is
  on the file itself (no lock file left behind); after waiting, the lock is retried if the file
  was replaced meanwhile (another writer's rename), so the reader always sees the latest text.
- `write_atomic(path, text)`: the new text goes to an anonymous file (`O_TMPFILE`) in the same
  folder, is flushed to disk, given a name and renamed over the sheet: a crash or a `kill -9`
  leaves the old sheet or the new one, and no temporary file (the anonymous file has no name
  until the last instant). A symlinked sheet stays a link: its target is replaced. A read-only
  sheet is refused, never rewritten. A new file gets the permissions the umask allows.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
from collections.abc import Iterator, Sequence
from pathlib import Path

from jdr.errors import SheetError

AT_FDCWD = -100
AT_EMPTY_PATH = 0x1000
MAX_WRITE = 1_000_000


def real_path(path: Path) -> Path:
    """The file a sheet path designates (symlinks followed)."""
    try:
        return Path(os.path.realpath(path))
    except (OSError, ValueError):
        return path


@contextlib.contextmanager
def locked(paths: Sequence[Path]) -> Iterator[None]:
    """Hold an exclusive lock on each existing file of `paths` (sorted, deduplicated)."""
    targets = sorted({str(real_path(p)) for p in paths})
    fds: list[int] = []
    try:
        for target in targets:
            fd = _lock_one(target)
            if fd is not None:
                fds.append(fd)
        yield
    finally:
        for fd in fds:
            with contextlib.suppress(OSError):
                os.close(fd)  # closing releases the lock


def _lock_one(target: str) -> int | None:
    for _ in range(1000):
        try:
            fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except (OSError, ValueError):
            return None  # not openable: reading the sheet will say why, in French
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            # Someone may have replaced the file while we waited: lock the new one instead.
            if os.fstat(fd).st_ino == os.stat(target).st_ino:
                return fd
        except FileNotFoundError:
            pass
        except OSError as exc:
            os.close(fd)
            raise SheetError(f"{target} : verrouillage impossible ({exc.strerror})") from None
        os.close(fd)
    raise SheetError(f"{target} : fiche remplacée sans cesse, verrouillage impossible")


def check_writable(path: Path) -> Path:
    """The real file to write for `path`, or a French error (missing folder, read-only, ...)."""
    target = real_path(path)
    folder = target.parent
    if len(target.name.encode("utf-8", "surrogateescape")) > 255:
        raise SheetError(f"{path} : nom de fichier trop long (255 octets au plus)")
    if not folder.is_dir():
        raise SheetError(f"{path} : le dossier {folder} n'existe pas")
    if target.exists():
        if not target.is_file():
            raise SheetError(f"{path} n'est pas un fichier ordinaire")
        if not os.access(target, os.W_OK) or not target.stat().st_mode & 0o222:
            raise SheetError(f"{path} : fiche en lecture seule, je ne la réécris pas")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise SheetError(f"{path} : dossier {folder} en lecture seule")
    return target


def _umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _anonymous(folder: Path, mode: int) -> int | None:
    try:
        return os.open(folder, os.O_TMPFILE | os.O_WRONLY | os.O_CLOEXEC, mode)
    except OSError as exc:
        if exc.errno in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL, errno.ENOENT):
            return None
        raise


def _name_anonymous(fd: int, name: Path) -> bool:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.linkat(fd, b"", AT_FDCWD, os.fsencode(name), AT_EMPTY_PATH) == 0:
        return True
    try:
        os.link(f"/proc/self/fd/{fd}", name, follow_symlinks=True)
        return True
    except OSError:
        return False


def write_atomic(path: Path, text: str) -> None:
    """Replace `path` (or its symlink's target) with `text`, atomically and durably."""
    data = text.encode("utf-8")
    if len(data) > MAX_WRITE:
        raise SheetError(f"{path} : la fiche dépasserait 1 Mo ; rien n'est écrit")
    target = check_writable(path)
    folder = target.parent
    mode = (target.stat().st_mode & 0o7777) if target.exists() else _umask_mode()
    import secrets

    temp = folder / f".{target.name[:200]}.{secrets.token_hex(4)}.tmp"
    try:
        fd = _anonymous(folder, mode)
        named = False
        if fd is None:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
            named = True
        try:
            _write_all(fd, data)
            os.fchmod(fd, mode)
            os.fsync(fd)
            if not named and not _name_anonymous(fd, temp):
                raise SheetError(f"{path} : écriture impossible (fichier temporaire)")
        finally:
            os.close(fd)
        os.replace(temp, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise SheetError(f"{path} : écriture impossible ({exc.strerror})") from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    _sync_folder(folder)


def _write_all(fd: int, data: bytes) -> None:
    os.lseek(fd, 0, os.SEEK_SET)
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
    os.ftruncate(fd, len(data))


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
