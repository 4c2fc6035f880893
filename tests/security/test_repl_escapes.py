"""Model code trying to get out of the REPL worker, with the audit hook switched off first: shells,
processes, the host's secrets, files outside, the response cache, signals, ptrace, the network,
kernel facilities. Each attack runs under each isolation set-up and must be stopped by the kernel;
a control runs the same code unconfined to show it is a real attack."""

from __future__ import annotations

import os
import socket
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from longread.repl.sandbox import Sandbox
from security.harness import GUARD_OFF, MODES, VICTIM_SECRET, attempt, isolation_mode, unconfined


@dataclass
class Targets:
    """What the attacks aim at, all outside the worker's folder."""

    outside: Path  # a folder of the host's
    cache_db: Path  # a response cache with one row
    tcp_port: int  # a TCP listener on 127.0.0.1 (the model server, say)
    unix_path: str  # a Unix socket in `outside`
    datagrams: socket.socket  # a datagram Unix socket in `outside` (what /dev/log is)
    abstract: str  # an abstract Unix socket
    victim: int  # a process of the host's user holding VICTIM_SECRET
    connections: list[str]

    def fill(self, action: str) -> str:
        return action.format(
            outside=self.outside,
            cache_db=self.cache_db,
            port=self.tcp_port,
            unix_path=self.unix_path,
            abstract=self.abstract,
            victim=self.victim,
            cache=self.cache_db.parent,
            datagram_path=self.datagrams.getsockname(),
        )

    def datagram_arrived(self) -> bool:
        self.datagrams.setblocking(False)
        try:
            return bool(self.datagrams.recv(100))
        except BlockingIOError:
            return False


def _listen(
    server: socket.socket, seen: list[str], label: str, stop: threading.Event
) -> threading.Thread:
    """Count connections to `server` as `label` until `stop` (a closed socket does not wake a
    thread waiting in accept, so it waits a moment at a time)."""
    server.settimeout(0.2)

    def accept() -> None:
        while not stop.is_set():
            try:
                connection, _ = server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            seen.append(label)
            connection.close()

    listener = threading.Thread(target=accept, daemon=True)
    listener.start()
    return listener


@pytest.fixture(scope="module")
def targets(tmp_path_factory, victim) -> Iterator[Targets]:
    outside = tmp_path_factory.mktemp("outside")
    cache_db = outside / "cache" / "responses.sqlite"
    cache_db.parent.mkdir()
    with sqlite3.connect(cache_db) as db:
        db.execute(
            "CREATE TABLE responses (key TEXT PRIMARY KEY, model TEXT, value TEXT, created REAL)"
        )
        db.execute("INSERT INTO responses VALUES ('k', 'm', '{\"text\": \"genuine\"}', 0)")
    seen: list[str] = []
    tcp = socket.create_server(("127.0.0.1", 0))
    unix = socket.socket(socket.AF_UNIX)
    unix.bind(str(outside / "host.sock"))
    unix.listen()
    abstract = socket.socket(socket.AF_UNIX)
    name = f"longread-test-{os.getpid()}"
    abstract.bind("\0" + name)
    abstract.listen()
    stop = threading.Event()
    listeners = [
        _listen(server, seen, label, stop)
        for server, label in ((tcp, "tcp"), (unix, "unix"), (abstract, "abstract"))
    ]
    datagrams = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    datagrams.bind(str(outside / "log.sock"))
    yield Targets(
        outside,
        cache_db,
        tcp.getsockname()[1],
        str(outside / "host.sock"),
        datagrams,
        name,
        victim.pid,
        seen,
    )
    stop.set()
    for listener in listeners:
        listener.join()
    for server in (tcp, unix, abstract, datagrams):
        server.close()


@pytest.fixture(scope="module", params=MODES)
def confined(request) -> Iterator[Sandbox]:
    """One worker per isolation set-up for the whole module (an attack that kills it is
    recovered)."""
    with isolation_mode(request.param), Sandbox({}, cell_timeout=20) as sandbox:
        assert sandbox.isolated, sandbox.layers
        yield sandbox


ESCAPES = {
    "shell via os.system": "assert os.system('echo pwned > {outside}/shell') == 0",
    "shell via subprocess": (
        "subprocess.run(['sh', '-c', 'echo pwned > {outside}/sub'], check=True)"
    ),
    "multiprocessing spawn": (
        "p = multiprocessing.get_context('spawn')"
        ".Process(target=os.system, args=('echo x > {outside}/mp',))\n"
        "p.start(); p.join(30); assert p.exitcode == 0"
    ),
    "multiprocessing.util.spawnv_passfds": (
        "import multiprocessing.util as u\n"
        "os.waitpid(u.spawnv_passfds(b'/bin/sh', [b'sh', b'-c', b'echo x > {outside}/spawnv'], ()"
        "), 0)"
    ),
    "fork": "pid = os.fork()\nif pid == 0: os._exit(0)\nos.waitpid(pid, 0)",
    "another process's environment": (
        "assert b'{secret}' in open('/proc/{victim}/environ', 'rb').read()"
    ),
    "environment through a dir_fd": (
        "fd = os.open('/', os.O_PATH)\n"
        "assert b'{secret}' in "
        "os.read(os.open('proc/{victim}/environ', os.O_RDONLY, dir_fd=fd), 65536)"
    ),
    "command line through a dir_fd": (
        "fd = os.open('/proc', os.O_PATH)\n"
        "assert b'sleep' in os.read(os.open('{victim}/cmdline', os.O_RDONLY, dir_fd=fd), 4096)"
    ),
    "/etc/shadow through a dir_fd": (
        "fd = os.open('/etc', os.O_PATH)\n"
        "assert b'root:' in os.read(os.open('shadow', os.O_RDONLY, dir_fd=fd), 4096)"
    ),
    "/etc through a dir_fd": (
        "fd = os.open('/etc', os.O_PATH)\n"
        "assert b'root' in os.read(os.open('passwd', os.O_RDONLY, dir_fd=fd), 4096)"
    ),
    "write outside through a dir_fd": (
        "fd = os.open('{outside}', os.O_PATH)\n"
        "os.close(os.open('dirfd', os.O_CREAT | os.O_WRONLY, 0o644, dir_fd=fd))"
    ),
    "write outside": "open('{outside}/plain', 'w').write('x')",
    "list the cache folder": "print(os.listdir('{cache}'))",
    "sqlite3 creates a file outside": (
        "sqlite3.connect('{outside}/evil.db').execute('CREATE TABLE t (x)')"
    ),
    "ATTACH DATABASE outside": (
        "db = sqlite3.connect(':memory:')\n"
        "db.execute(\"ATTACH DATABASE '{outside}/attached.db' AS a\")\n"
        "db.execute('CREATE TABLE a.t (x)')"
    ),
    "read the response cache": (
        "db = sqlite3.connect('file:{cache_db}?mode=ro', uri=True)\n"
        "print(db.execute('SELECT value FROM responses').fetchall())"
    ),
    "poison the response cache": (
        "db = sqlite3.connect('{cache_db}')\n"
        "db.execute(\"UPDATE responses SET value = 'POISON'\")\ndb.commit()"
    ),
    "kill another process": "os.kill({victim}, signal.SIGKILL)",
    "kill another process group": "os.killpg(os.getpgid({victim}), signal.SIGKILL)",
    "pidfd_send_signal": "signal.pidfd_send_signal(os.pidfd_open({victim}), signal.SIGKILL)",
    "ptrace": (
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "assert libc.ptrace(16, {victim}, 0, 0) == 0, os.strerror(ctypes.get_errno())\n"
        "libc.ptrace(17, {victim}, 0, 0)"
    ),
    "TCP to the model server": "socket.create_connection(('127.0.0.1', {port}), timeout=3).close()",
    "HTTP to the model server": (
        "import http.client\n"
        "http.client.HTTPConnection('127.0.0.1', {port}, timeout=3).request('GET', '/v1/models')"
    ),
    "UDP": "socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'x', ('127.0.0.1', {port}))",
    "a Unix socket outside": "s = socket.socket(socket.AF_UNIX); s.connect('{unix_path}')",
    "an abstract Unix socket": "s = socket.socket(socket.AF_UNIX); s.connect('\\0{abstract}')",
    "a datagram to a Unix socket path": (
        "a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)\n"
        "a.sendto(b'x', '{datagram_path}')"
    ),
    "chmod, utime and xattrs outside": (
        "os.utime('{outside}')\nos.chmod('{outside}', 0o777)\n"
        "os.setxattr('{outside}', 'user.k', b'v')"
    ),
    "a file in the work folder": "open('notes.txt', 'w').write('x')",
    "extended attributes in the work folder": "os.setxattr('.', 'user.k', b'v' * 60000)",
    "watching a folder it cannot list": (
        "libc = ctypes.CDLL(None, use_errno=True)\nfd = libc.inotify_init1(0)\n"
        "assert fd >= 0 and libc.inotify_add_watch(fd, b'{outside}', 0xfff) >= 0"
    ),
    "another process's CPU affinity": "os.sched_getaffinity({victim})",
    "the host's mount table (listmount)": (
        "import errno\nlibc = ctypes.CDLL(None, use_errno=True)\nlibc.syscall(458, 0, 0, 0, 0)\n"
        "assert ctypes.get_errno() != errno.EPERM"
    ),
    "undying: clear the parent-death signal": (
        "libc = ctypes.CDLL(None, use_errno=True)\nassert libc.prctl(1, 0, 0, 0, 0) == 0"
    ),
    "the system-wide asynchronous I/O pool": (
        "libc = ctypes.CDLL(None, use_errno=True)\nctx = ctypes.c_ulong(0)\n"
        "assert libc.syscall(206, 65536, ctypes.byref(ctx)) == 0, os.strerror(ctypes.get_errno())"
    ),
    "a signal through a file's owner (F_SETOWN)": (
        "import fcntl\nr, w = os.pipe()\nfcntl.fcntl(r, fcntl.F_SETOWN, {victim})"
    ),
    "a signal through a file's owner (FIOSETOWN)": (
        "import fcntl, struct\na, b = socket.socketpair()\n"
        "fcntl.ioctl(a, 0x8901, struct.pack('i', {victim}))"
    ),
    "asynchronous I/O signals (O_ASYNC)": (
        "import fcntl\nr, w = os.pipe()\nfcntl.fcntl(r, fcntl.F_SETFL, os.O_ASYNC)"
    ),
    "system-wide writeback (sync)": (
        "libc = ctypes.CDLL(None, use_errno=True)\nassert libc.syscall(162) == 0"
    ),
    "memfd (memory outside RLIMIT_AS)": (
        "libc = ctypes.CDLL(None, use_errno=True)\nassert libc.memfd_create(b'x', 0) >= 0"
    ),
    "a user namespace": (
        "libc = ctypes.CDLL(None, use_errno=True)\nassert libc.unshare(0x10000000) == 0"
    ),
    "io_uring": (
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "assert libc.syscall(425, 4, ctypes.create_string_buffer(120)) >= 0"
    ),
    "bpf": (
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "assert libc.syscall(321, 0, ctypes.create_string_buffer(128), 128) >= 0"
    ),
    "keyctl": "libc = ctypes.CDLL(None, use_errno=True)\nassert libc.syscall(250, 0, -3, 0) >= 0",
    "raise the memory limit": (
        "resource.setrlimit(resource.RLIMIT_AS, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))"
    ),
    "the terminal": "open('/dev/tty', 'w').write('x')",
}
# Attacks whose unconfined control needs root (or would harm the machine): no control for them.
NO_CONTROL = {
    "the system-wide asynchronous I/O pool",
    "a file in the work folder",
    "extended attributes in the work folder",
    "undying: clear the parent-death signal",
    "ptrace",
    "a user namespace",
    "raise the memory limit",
    "the terminal",
    "io_uring",
    "bpf",
    "keyctl",
    "kill another process",
    "kill another process group",
    "pidfd_send_signal",
    "UDP",
    "memfd (memory outside RLIMIT_AS)",
}


def _action(name: str, targets: Targets) -> str:
    return targets.fill(ESCAPES[name].replace("{secret}", VICTIM_SECRET))


@pytest.mark.parametrize("name", sorted(ESCAPES))
def test_escape_is_stopped_by_the_kernel(name, confined, targets, victim):
    output = confined.run(GUARD_OFF + attempt(_action(name, targets))).render()
    assert "BLOCKED" in output and "ESCAPED" not in output, output
    assert "SandboxViolation" not in output  # the audit hook was off: the kernel said no
    assert VICTIM_SECRET not in output and "genuine" not in output
    assert victim.poll() is None  # still alive
    assert sorted(p.name for p in targets.outside.iterdir()) == ["cache", "host.sock", "log.sock"]
    assert not targets.datagram_arrived()
    with sqlite3.connect(targets.cache_db) as db:
        assert db.execute("SELECT value FROM responses").fetchall() == [('{"text": "genuine"}',)]
    assert targets.connections == []
    assert confined.run("print(6 * 7)").output.strip() == "42"  # and the REPL goes on


@pytest.mark.parametrize("name", sorted(set(ESCAPES) - NO_CONTROL))
def test_the_same_code_unconfined_does_escape(name, targets):
    """The control: without the sandbox each attack does what it claims."""
    if name.startswith("/etc/shadow") and os.geteuid() != 0:
        pytest.skip("only root reads /etc/shadow")
    output = unconfined(attempt(_action(name, targets)))
    assert "ESCAPED" in output, output
    targets.datagram_arrived()  # (drained)
    targets.outside.chmod(0o700)
    for leftover in targets.outside.iterdir():
        if leftover.name not in ("cache", "host.sock", "log.sock"):
            leftover.unlink()
    with sqlite3.connect(targets.cache_db) as db:
        db.execute("""UPDATE responses SET value = '{"text": "genuine"}'""")
    targets.connections.clear()


def test_the_guard_prelude_really_switches_the_audit_hook_off(confined, targets):
    """With the hook on, a read outside is refused by it; after the prelude, by the kernel alone."""
    code = attempt(targets.fill("open('{cache_db}').read()"))
    confined.restart()  # a fresh worker: earlier tests switched its hook off
    assert "SandboxViolation" in confined.run(code).render()
    confined.restart()
    after = confined.run(GUARD_OFF + code).render()
    assert "BLOCKED" in after and "SandboxViolation" not in after
    assert "PermissionError" in after or "FileNotFoundError" in after  # bwrap: not even there


def test_files_outside_cannot_even_be_looked_at(confined, targets):
    """stat() needs no Landlock right; the unprivileged uid (or bwrap's mount namespace) stops
    it."""
    if os.geteuid() != 0 and not confined.layers["namespaces"]["active"]:
        pytest.skip(
            "a non-root host without bubblewrap: model code may stat (not read) the user's files"
        )
    output = confined.run(GUARD_OFF + attempt(targets.fill("os.stat('{cache_db}')"))).output
    assert "BLOCKED" in output and "ESCAPED" not in output
    assert "ESCAPED" in unconfined(attempt(targets.fill("os.stat('{cache_db}')")))


def test_a_32_bit_or_x32_system_call_kills_the_worker_not_the_host(confined):
    x32_fork = "import ctypes\nctypes.CDLL(None).syscall(0x40000000 | 57)\nprint('ESCAPED')"
    result = confined.run(GUARD_OFF + x32_fork)
    assert "ESCAPED" not in result.render() and "exited" in result.render()
    assert confined.run("print('back')").output.strip() == "back"


def test_clone3_is_refused_so_that_threads_still_work(confined):
    code = (
        "import ctypes, threading\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        "print(libc.syscall(435, 0, 0), ctypes.get_errno())\n"
        "t = threading.Thread(target=print, args=('thread ran',)); t.start(); t.join()"
    )
    output = confined.run(code).output
    assert "-1 38" in output and "thread ran" in output  # ENOSYS, and glibc falls back to clone


def test_the_worker_runs_unprivileged_and_cannot_regain_root(confined):
    output = confined.run(
        GUARD_OFF + attempt("os.setuid(0)") + "print(os.getuid(), os.geteuid())"
    ).output
    assert "BLOCKED PermissionError" in output
    uid = int(output.split()[-1])
    assert uid != 0


def test_the_environment_holds_no_secret_of_the_host(confined, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-host-secret-value")
    confined.restart()
    output = confined.run("import os\nprint(sorted(os.environ))").output
    assert "OPENAI_API_KEY" not in output and "PATH" in output


@pytest.mark.skipif(os.geteuid() != 0, reason="only a worker started by root gets a uid of its own")
def test_one_worker_cannot_starve_another_of_threads(confined):
    """Thread limits count per uid: each worker started by root has a uid of its own."""
    hog = (
        "import threading, time\nthreading.stack_size(65536)\nn = 0\n"
        "try:\n    while True:\n"
        "        threading.Thread(target=time.sleep, args=(60,), daemon=True).start(); n += 1\n"
        "except RuntimeError:\n    print('threads', n)"
    )
    with Sandbox({}) as other:
        started = confined.run(GUARD_OFF + hog).output
        assert "threads" in started, started
        assert (
            other.run(
                "import threading\nt = threading.Thread(target=print, args=('ok',))\n"
                "t.start(); t.join()"
            ).output.strip()
            == "ok"
        )
    confined.restart()


def test_one_worker_cannot_reach_another(confined, tmp_path):
    """Another run's worker: its context file, its process."""
    with Sandbox({}, context="OTHER RUN'S DOCUMENT") as other:
        context_file = os.path.join(other.run_dir, "context.txt")
        code = attempt(f"print(open({context_file!r}).read())") + attempt(
            f"os.kill({other._process.pid}, signal.SIGKILL)"
        )
        output = confined.run(GUARD_OFF + code).output
        assert output.count("BLOCKED") == 2 and "OTHER RUN" not in output
        assert other.run("print(len(context))").output.strip() == "20"


def test_the_work_folder_cannot_fill_the_disk(mode, tmp_path):
    """Writing without end: nothing is written, with bubblewrap or without."""
    fill = (
        "written = 0\nchunk = b'x' * (1 << 20)\n"
        "for n in range(400):\n"
        "    try:\n"
        "        with open(f'fill-{n}.bin', 'wb') as f:\n"
        "            while True:\n"
        "                f.write(chunk); f.flush(); written += len(chunk)\n"
        "    except BaseException as error:\n"
        "        last = type(error).__name__\n"
        "print(written, last)"
    )
    with Sandbox({}, cell_timeout=30) as sandbox:
        output = sandbox.run(GUARD_OFF + fill).output.split()
    assert int(output[0]) == 0, output
    assert output[1] in ("OSError", "PermissionError")


def test_a_killed_hosts_run_folder_is_swept_by_the_next(tmp_path):
    """A host killed with SIGKILL cannot clean up; the next host to start a worker does."""
    import signal
    import subprocess
    import sys

    script = (
        "from longread.repl.sandbox import Sandbox\nimport sys, time\n"
        "s = Sandbox({}); s.start(); print(s.run_dir, flush=True); time.sleep(60)"
    )
    host = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    run_dir = host.stdout.readline().strip()
    assert os.path.isdir(run_dir)
    host.send_signal(signal.SIGKILL)
    host.wait()
    from longread.repl import rundirs

    rundirs.sweep.cache_clear()
    assert os.path.basename(run_dir) in rundirs.sweep()
    assert not os.path.exists(run_dir)
