"""Writing an export's files: only where a file belongs, and all of them or none.

``-o`` names a regular file (replaced) or a new one in a directory that exists and
may be written; anything else is refused in one line before any work is done, and
again just before the files are written:

* a symbolic link is refused, not followed or replaced: a link is often where a
  path is made to point somewhere else than its reader thinks;
* a directory, a FIFO, a socket or a device node is refused: tidx replaces files
  by renaming a new one over them, which would turn ``/dev/null`` into a file (as
  root) and never feed a pipe; ``-o -`` writes to standard output instead
  (:data:`STDOUT`);
* a file that may not be written (read-only) is refused, as ``cp`` would;
* a replaced file keeps its permission bits (and, where the process may, its owner
  and group).

A set of files (one image per statement) is committed as one: every file is staged
in a temporary file beside its target; then each old file is kept under a backup
name (a hard link), the new ones renamed over the targets, and the backups removed.
If anything fails between the first rename and the last, the old files are put back
and the new ones removed: the set is all old or all new, and no temporary file stays.
SIGINT, SIGTERM and SIGHUP that arrive meanwhile are held until the files are whole
(staging and committing a few files takes milliseconds), then acted on as they would
have been.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import stat
import tempfile
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

#: The ``-o`` values that mean standard output.
STDOUT = ("-", "/dev/stdout")

#: Signals held while files are written (each would end the process half-way).
HELD = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
             if hasattr(signal, name))


class WriteError(Exception):
    """A one-line reason the files cannot be written (the CLI exits 2 with it)."""


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"))


def check(path: str | os.PathLike[str]) -> os.stat_result | None:
    """Refuse, as a :class:`WriteError`, a target tidx must not write (see the module's
    rules); the status of the regular file it replaces, or None for a new file."""
    target = Path(path)
    shown = str(target)
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise WriteError(f"cannot write {shown!r}: {exc.strerror or exc}") from None
    if st is not None:
        if stat.S_ISLNK(st.st_mode):
            raise WriteError(f"cannot write {shown!r}: it is a symbolic link (tidx neither "
                             "follows nor replaces links; give the path of the file it "
                             "points to)")
        for test, kind in _KINDS:
            if test(st.st_mode):
                raise WriteError(f"cannot write {shown!r}: it is {kind}, not a regular file "
                                 "(-o - writes to standard output)")
        if not os.access(target, os.W_OK):
            raise WriteError(f"cannot write {shown!r}: the file is read-only")
    check_directory(target)
    return st


def check_directory(path: str | os.PathLike[str]) -> None:
    """Refuse, as a :class:`WriteError`, a file in a directory that does not exist or
    may not be written."""
    target = Path(path)
    shown = str(target)
    folder = target.parent
    if not folder.is_dir():
        what = "is not a directory" if folder.exists() else "does not exist"
        raise WriteError(f"cannot write {shown!r}: its directory {str(folder)!r} {what}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise WriteError(f"cannot write {shown!r}: no permission to create files in "
                         f"{str(folder)!r}")


def write_all(files: Sequence[tuple[str | os.PathLike[str], bytes]]) -> None:
    """Write every file, or none (see the module)."""
    with held_signals():
        staged: list[tuple[Path, str]] = []      # (target, its temporary file)
        backups: dict[Path, str] = {}            # target -> the old file's backup
        replaced: list[Path] = []
        current = Path(".")
        try:
            for path, data in files:
                current = Path(path)
                staged.append((current, _stage(current, data, check(current))))
            for current, _ in staged:
                if current.exists():
                    backups[current] = _backup(current)
            for current, tmp in staged:
                replaced.append(current)   # first: rolled back even if cut short here
                os.replace(tmp, current)
            _sync_directories({target.parent for target, _ in staged})
        except BaseException as exc:
            lost = _roll_back(replaced, backups)
            for _, tmp in staged:
                _remove(tmp)
            if lost:
                raise WriteError(f"cannot write {str(current)!r} ({_reason(exc)}), and "
                                 f"the old {lost[0][0]!r} could not be put back: it is "
                                 f"{lost[0][1]!r}") from None
            if isinstance(exc, OSError):
                raise WriteError(f"cannot write {str(current)!r}: {_reason(exc)}") from None
            raise
        for backup in backups.values():
            _remove(backup)


def _reason(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)) or \
        type(exc).__name__


def _stage(target: Path, data: bytes, old: os.stat_result | None) -> str:
    """``data`` in a new temporary file beside ``target``, with the mode (and, where
    the process may, the owner) of the file it replaces, else an ordinary new file's."""
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                   suffix=".tmp")
    except OSError as exc:
        raise WriteError(f"cannot write {str(target)!r}: {_reason(exc)}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if old is not None:
            if hasattr(os, "chown"):
                with contextlib.suppress(OSError):   # only root may give a file away
                    os.chown(tmp, old.st_uid, old.st_gid)
            mode = stat.S_IMODE(old.st_mode) & 0o777       # never the set-id bits
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask        # as a new file would be, not mkstemp's 0600
        os.chmod(tmp, mode)
    except BaseException:
        _remove(tmp)
        raise
    return tmp


def _backup(target: Path) -> str:
    """The old file kept under a new name beside it (a hard link: the same file, no
    copy), to be put back if the commit fails."""
    for _ in range(100):
        name = str(target.with_name(f".{target.name}.{secrets.token_hex(4)}.old"))
        try:
            os.link(target, name, follow_symlinks=False)
            return name
        except FileExistsError:
            continue
        except OSError:          # a file system without hard links: a copy
            fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.",
                                        suffix=".old")
            os.close(fd)
            try:
                shutil.copy2(target, name)
            except BaseException:
                _remove(name)
                raise
            return name
    raise FileExistsError(f"no free backup name beside {str(target)!r}")


def _roll_back(replaced: list[Path], backups: dict[Path, str]) -> list[tuple[str, str]]:
    """Put the old files back over the new ones (a new file where there was none is
    removed); the backups of files that could not be put back, which stay."""
    lost = []
    for target in reversed(replaced):
        backup = backups.pop(target, None)
        try:
            if backup is None:
                target.unlink(missing_ok=True)
            else:
                os.replace(backup, target)
                # (a rename between two links of one file does nothing: the target was
                # never replaced, and its backup name is left to remove)
                _remove(backup)
        except OSError:
            if backup is not None:
                lost.append((str(target), backup))
    for backup in backups.values():       # targets the commit never reached
        _remove(backup)
    return lost


def _sync_directories(folders: set[Path]) -> None:
    """Make the renames durable (a crash after tidx said it wrote keeps the new files)."""
    for folder in folders:
        with contextlib.suppress(OSError):
            fd = os.open(folder, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)


def _remove(path: str) -> None:
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


@contextlib.contextmanager
def held_signals() -> Iterator[None]:
    """SIGINT, SIGTERM and SIGHUP noted, not acted on, inside the block; afterwards
    the first one is raised again under the handler it had (the default ends the
    process as the signal would have, Python's SIGINT raises KeyboardInterrupt).
    Outside the main thread, where Python cannot set handlers, the block runs as is."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    before = {}
    try:
        for sig in HELD:
            before[sig] = signal.signal(sig, lambda signum, frame: caught.append(signum))
        yield
    finally:
        for sig, handler in before.items():
            # (None: a handler not set from Python, which Python cannot set back)
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)
        if caught:
            signal.raise_signal(caught[0])
