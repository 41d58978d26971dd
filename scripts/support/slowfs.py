"""A FUSE passthrough file system whose fsync is slow, and optionally lazy (a power cut loses
unsynced writes). Used through scripts/support/slow-disk.ts; see there for the model.

    /usr/bin/python3 slowfs.py BACKING_DIR MOUNT_DIR CONTROL_FILE

CONTROL_FILE (JSON, written by the caller): {"fsyncDelayMs": N, "failFsyncs": bool, "lazy": bool}.
fsyncDelayMs and failFsyncs are re-read at every fsync (missing file = 0, false); lazy is read once
at mount time. While failFsyncs is on, every fsync (after the delay) fails with EIO and syncs
nothing, as a dying card does; in lazy mode its pending writes stay pending.
<CONTROL_FILE>.log gets one JSON line per fsync: {"path", "startedAt", "endedAt" (ms epoch),
"datasync", "directory"}, and "failed": true on one that failed.

stdin is the control channel: the line "powercut" drops every pending write (lazy mode) and is
answered "ok powercut" on stdout once done, so the caller knows the cut has happened. End of stdin
means the caller is gone: unmount and exit.

Uses Debian's python3-fusepy (module `fusepy`, libfuse2) and /usr/bin/python3.
"""

import ctypes
import errno
import json
import os
import signal
import subprocess
import sys
import threading
import time

from fusepy import FUSE, FuseOSError, Operations

PAGE = 4096


class Pending:
    """Lazy mode: one file's writes and truncates not yet fsynced.

    Bytes in [0, size) are: `pages[p]` where present, else the backing file's bytes below `floor`,
    else zeros. `floor` is the smallest size the file had since its last fsync, so backing bytes a
    pending truncate cut off never show again. Bytes of `pages` at or past `size` are kept zero.
    """

    def __init__(self, size):
        self.size = size
        self.floor = size
        self.pages = {}


class SlowFs(Operations):
    use_ns = True

    def __init__(self, root, control, lazy):
        self.root = root
        self.control = control
        self.log = control + '.log'
        self.lazy = lazy
        # Not `self.lock`: fusepy would take that for the FUSE lock operation, and POSIX locks
        # must stay with the kernel (no lock operation at all).
        # Lazy state: one lock for all of it (correctness first; files are a few MB). Keys are
        # (st_dev, st_ino) of the backing file, so a rename keeps a file's pending writes; an
        # unlinked file that is still open moves to an ('orphan', n) key so a reused inode number
        # never inherits its writes.
        self.mutex = threading.Lock()
        self.pending = {}
        self.fh_key = {}
        self.orphans = 0
        self.log_lock = threading.Lock()

    def _p(self, path):
        return os.path.join(self.root, path.lstrip('/'))

    # --- control -------------------------------------------------------------------------

    def _settings(self):
        """(delay in seconds, whether fsyncs fail), as the control file says now."""
        try:
            with open(self.control) as f:
                settings = json.load(f)
            return float(settings.get('fsyncDelayMs', 0)) / 1000, bool(settings.get('failFsyncs', False))
        except FileNotFoundError:
            return 0, False
        except (ValueError, AttributeError) as e:
            print(f'slowfs: unreadable control file, no delay, no failures: {e}', file=sys.stderr, flush=True)
            return 0, False

    def _log(self, path, started, ended, datasync, directory, failed=False):
        record = {'path': path, 'startedAt': started, 'endedAt': ended,
                  'datasync': bool(datasync), 'directory': directory}
        if failed:
            record['failed'] = True
        line = json.dumps(record)
        with self.log_lock, open(self.log, 'a') as f:
            f.write(line + '\n')

    def power_cut(self):
        with self.mutex:
            self.pending.clear()

    # --- lazy helpers (call with self.mutex held) -----------------------------------------

    def _state(self, key, size_now):
        state = self.pending.get(key)
        if state is None:
            state = self.pending[key] = Pending(size_now())
        return state

    def _fh_state(self, fh):
        return self._state(self.fh_key[fh], lambda: os.fstat(fh).st_size)

    def _load(self, state, fh, page):
        buf = bytearray(PAGE)
        valid = min(state.floor, (page + 1) * PAGE) - page * PAGE
        if valid > 0:
            data = os.pread(fh, valid, page * PAGE)
            buf[:len(data)] = data
        state.pages[page] = buf
        return buf

    def _truncate(self, state, length):
        if length < state.size:
            state.floor = min(state.floor, length)
            for page in [p for p in state.pages if p * PAGE >= length]:
                del state.pages[page]
            tail = state.pages.get(length // PAGE)
            if tail is not None:
                tail[length % PAGE:] = bytes(PAGE - length % PAGE)
        state.size = length

    def _orphan(self, key):
        """The backing path of `key` is going away (unlink, rename over it)."""
        state = self.pending.pop(key, None)
        users = [fh for fh, k in self.fh_key.items() if k == key]
        if state is None or not users:
            return
        self.orphans += 1
        orphan = ('orphan', self.orphans)
        self.pending[orphan] = state
        for fh in users:
            self.fh_key[fh] = orphan

    def _key_of_path(self, path, last_link=False):
        """The inode at `path`; with last_link, None unless removing `path` removes the inode."""
        try:
            st = os.lstat(self._p(path))
        except FileNotFoundError:
            return None
        if last_link and st.st_nlink > 1:
            return None
        return (st.st_dev, st.st_ino)

    # --- metadata: applied to the backing directory at once, lazy or not -----------------

    def access(self, path, mode):
        if not os.access(self._p(path), mode):
            raise FuseOSError(errno.EACCES)

    def getattr(self, path, fh=None):
        st = os.fstat(fh) if fh is not None else os.lstat(self._p(path))
        attrs = {k: getattr(st, k) for k in
                 ('st_gid', 'st_mode', 'st_nlink', 'st_size', 'st_uid', 'st_blocks')}
        attrs.update(st_atime=st.st_atime_ns, st_mtime=st.st_mtime_ns, st_ctime=st.st_ctime_ns)
        if self.lazy:
            with self.mutex:
                key = self.fh_key.get(fh) if fh is not None else (st.st_dev, st.st_ino)
                state = self.pending.get(key)
                if state is not None:
                    attrs['st_size'] = state.size
        return attrs

    def readdir(self, path, fh):
        return ['.', '..'] + os.listdir(self._p(path))

    def readlink(self, path):
        return os.readlink(self._p(path))

    def symlink(self, target, source):
        os.symlink(source, self._p(target))

    def link(self, target, source):
        os.link(self._p(source), self._p(target))

    def unlink(self, path):
        with self.mutex:
            key = self._key_of_path(path, last_link=True)
            os.unlink(self._p(path))
            if key is not None:
                self._orphan(key)

    def rename(self, old, new):
        with self.mutex:
            replaced = self._key_of_path(new, last_link=True)
            moved = self._key_of_path(old)
            os.rename(self._p(old), self._p(new))
            if replaced is not None and replaced != moved:
                self._orphan(replaced)

    def mkdir(self, path, mode):
        os.mkdir(self._p(path), mode)

    def rmdir(self, path):
        os.rmdir(self._p(path))

    def chmod(self, path, mode):
        os.chmod(self._p(path), mode)

    def chown(self, path, uid, gid):
        os.chown(self._p(path), uid, gid)

    def utimens(self, path, times=None):
        if times is None:
            os.utime(self._p(path))
        else:
            os.utime(self._p(path), ns=times)

    def statfs(self, path):
        st = os.statvfs(self._p(path))
        return {k: getattr(st, k) for k in ('f_bavail', 'f_bfree', 'f_blocks', 'f_bsize', 'f_favail',
                                            'f_ffree', 'f_files', 'f_flag', 'f_frsize', 'f_namemax')}

    # --- files ---------------------------------------------------------------------------

    def _opened(self, fd):
        st = os.fstat(fd)
        with self.mutex:
            self.fh_key[fd] = (st.st_dev, st.st_ino)
        return fd

    def open(self, path, flags):
        # The kernel sends the offset of every write, appends included; with O_APPEND on the
        # backing file, Linux's pwrite would ignore it.
        flags &= ~os.O_APPEND
        truncate = self.lazy and flags & os.O_TRUNC
        if self.lazy:
            flags &= ~os.O_TRUNC
        try:
            # Readable too if we may: the kernel reads through any handle (mmap, partial pages),
            # and lazy mode reads the backing file to fill its pages.
            fd = os.open(self._p(path), (flags & ~os.O_ACCMODE) | os.O_RDWR)
        except PermissionError:
            fd = os.open(self._p(path), flags)
        self._opened(fd)
        if truncate:
            self.truncate(path, 0, fd)
        return fd

    def create(self, path, mode, fi=None):
        # O_RDWR, not O_WRONLY: SQLite mmaps its -shm file and reads through it (EBADF, SIGBUS).
        return self._opened(os.open(self._p(path), os.O_RDWR | os.O_CREAT, mode))

    def read(self, path, size, offset, fh):
        if not self.lazy:
            return os.pread(fh, size, offset)
        with self.mutex:
            state = self.pending.get(self.fh_key[fh])
            if state is None:
                return os.pread(fh, size, offset)
            end = min(offset + size, state.size)
            if offset >= end:
                return b''
            out = bytearray(end - offset)
            pos = offset
            while pos < end:
                page, within = divmod(pos, PAGE)
                n = min(PAGE - within, end - pos)
                buf = state.pages.get(page)
                if buf is not None:
                    out[pos - offset:pos - offset + n] = buf[within:within + n]
                elif pos < state.floor:
                    data = os.pread(fh, min(n, state.floor - pos), pos)
                    out[pos - offset:pos - offset + len(data)] = data
                pos += n
            return bytes(out)

    def write(self, path, data, offset, fh):
        if not self.lazy:
            return os.pwrite(fh, data, offset)
        with self.mutex:
            state = self._fh_state(fh)
            pos, end = offset, offset + len(data)
            while pos < end:
                page, within = divmod(pos, PAGE)
                n = min(PAGE - within, end - pos)
                buf = state.pages.get(page)
                if buf is None:
                    buf = self._load(state, fh, page)
                buf[within:within + n] = data[pos - offset:pos - offset + n]
                pos += n
            state.size = max(state.size, end)
            return len(data)

    def truncate(self, path, length, fh=None):
        if not self.lazy:
            if fh is None:
                os.truncate(self._p(path), length)
            else:
                os.ftruncate(fh, length)
            return
        with self.mutex:
            if fh is not None:
                state = self._fh_state(fh)
            else:
                key = self._key_of_path(path)
                if key is None:
                    raise FuseOSError(errno.ENOENT)
                state = self._state(key, lambda: os.lstat(self._p(path)).st_size)
            self._truncate(state, length)

    def flush(self, path, fh):
        return 0

    def release(self, path, fh):
        with self.mutex:
            key = self.fh_key.pop(fh, None)
            if key is not None and key[0] == 'orphan' and key not in self.fh_key.values():
                self.pending.pop(key, None)
        os.close(fh)

    def _apply(self, fh):
        """Lazy mode: writes the file's pending data to the backing file (before its fsync)."""
        with self.mutex:
            state = self.pending.pop(self.fh_key[fh], None)
            if state is None:
                return
            if os.fstat(fh).st_size > state.floor:
                os.ftruncate(fh, state.floor)
            pages = sorted(state.pages)
            i = 0
            while i < len(pages):  # one pwrite per run of consecutive pages
                j = i
                while j + 1 < len(pages) and pages[j + 1] == pages[j] + 1:
                    j += 1
                start = pages[i] * PAGE
                run = b''.join(state.pages[p] for p in pages[i:j + 1])[:max(0, state.size - start)]
                if run:
                    os.pwrite(fh, run, start)
                i = j + 1
            if os.fstat(fh).st_size != state.size:
                os.ftruncate(fh, state.size)

    def fsync(self, path, datasync, fh):
        # Each request sleeps on its own worker thread: concurrent fsyncs overlap, like storage
        # with high latency per request (the kernel itself serializes fsyncs of one file).
        started = time.time() * 1000
        delay, failing = self._settings()
        if delay > 0:
            time.sleep(delay)
        if failing:
            self._log(path, started, time.time() * 1000, datasync, False, failed=True)
            raise FuseOSError(errno.EIO)
        if self.lazy:
            self._apply(fh)
        if datasync:
            os.fdatasync(fh)
        else:
            os.fsync(fh)
        self._log(path, started, time.time() * 1000, datasync, False)
        return 0

    def fsyncdir(self, path, datasync, fh):
        started = time.time() * 1000
        delay, failing = self._settings()
        if delay > 0:
            time.sleep(delay)
        if failing:
            self._log(path, started, time.time() * 1000, datasync, True, failed=True)
            raise FuseOSError(errno.EIO)
        fd = os.open(self._p(path), os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        self._log(path, started, time.time() * 1000, datasync, True)
        return 0


def die_with_parent():
    # PR_SET_PDEATHSIG = 1: SIGTERM when the parent dies; libfuse's handler then unmounts.
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:
        sys.exit('slowfs: parent already gone')


def serve_stdin(fs, mount):
    # SIGTERM must reach the main thread: libfuse's handler only flags the exit, and the main
    # thread notices when its wait is interrupted. Delivered here, it would go unnoticed.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
    for line in sys.stdin:
        if line.strip() == 'powercut':
            fs.power_cut()
            print('ok powercut', flush=True)
    # The caller closed stdin or died: detach the mount (ends the FUSE loop), then go.
    subprocess.run(['fusermount', '-u', '-z', '-q', mount], check=False)
    time.sleep(5)
    os._exit(0)


def main():
    root, mount, control = sys.argv[1:4]
    try:
        with open(control) as f:
            lazy = bool(json.load(f).get('lazy', False))
    except FileNotFoundError:
        lazy = False
    die_with_parent()
    fs = SlowFs(os.path.realpath(root), os.path.realpath(control), lazy)
    threading.Thread(target=serve_stdin, args=(fs, mount), daemon=True).start()
    # Multithreaded so a sleeping fsync does not hold up other requests; attr/entry timeouts 0
    # so sizes the lazy layer reports are never stale in the kernel.
    FUSE(fs, mount, foreground=True, nothreads=False, attr_timeout=0, entry_timeout=0,
         fsname='slowfs')


if __name__ == '__main__':
    main()
