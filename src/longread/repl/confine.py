"""Inside the REPL worker, before any model code runs: the kernel's limits on what this process may
do. Resource limits; an unprivileged uid when started as root; Landlock (files readable only under
Python's installation and the system libraries, writable nowhere; no TCP; signals and abstract
sockets scoped to the worker); a seccomp filter (no new processes, ptrace, sockets, mounts,
namespaces, keyrings, BPF, file metadata changes...). Each layer reports whether it took hold.
Nothing here relies on Python code that model code could rewrite: once applied, the kernel enforces
it."""

from __future__ import annotations

import errno
import os
import platform
import resource
import stat
import sys
from typing import Any

Report = dict[str, dict[str, Any]]  # layer -> {"active": bool, "detail": str}

# Denied outright (EPERM). Names this kernel or libseccomp does not know are skipped.
DENIED_SYSCALLS = (
    # new processes and programs (threads stay allowed: see the clone rule)
    "fork",
    "vfork",
    "execve",
    "execveat",
    # other processes' memory and descriptors
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    "pidfd_open",
    "pidfd_getfd",
    "pidfd_send_signal",
    "tkill",
    "process_madvise",
    "process_mrelease",
    "migrate_pages",
    "move_pages",
    "setpriority",
    "ioprio_set",
    # the network (pipes and stream socket pairs stay)
    "socket",
    "connect",
    "bind",
    "listen",
    "accept",
    "accept4",
    # file metadata and attributes (the worker writes nothing; Landlock does not cover these),
    # watching folders it cannot list, locks shared with other processes
    "chmod",
    "fchmod",
    "fchmodat",
    "fchmodat2",
    "chown",
    "fchown",
    "lchown",
    "fchownat",
    "utime",
    "utimes",
    "futimesat",
    "utimensat",
    "setxattr",
    "lsetxattr",
    "fsetxattr",
    "removexattr",
    "lremovexattr",
    "fremovexattr",
    "inotify_init",
    "inotify_init1",
    "inotify_add_watch",
    "fanotify_mark",
    "flock",
    "ioprio_get",
    # mounts, namespaces, privileges
    "mount",
    "umount2",
    "fsopen",
    "fsmount",
    "fsconfig",
    "fspick",
    "move_mount",
    "open_tree",
    "mount_setattr",
    "unshare",
    "setns",
    "chroot",
    "pivot_root",
    "open_by_handle_at",
    "name_to_handle_at",
    "mknod",
    "mknodat",
    "personality",
    "uselib",
    # kernel facilities with a history of escapes or host-wide effects
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "keyctl",
    "add_key",
    "request_key",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "fanotify_init",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "quotactl",
    "quotactl_fd",
    "syslog",
    "iopl",
    "ioperm",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "sethostname",
    "setdomainname",
    "vhangup",
    "lookup_dcookie",
    # kernel pools shared with every process (asynchronous I/O), system-wide writeback
    "io_setup",
    "io_destroy",
    "io_submit",
    "io_cancel",
    "io_getevents",
    "io_pgetevents",
    "sync",
    "syncfs",
    "modify_ldt",
    # memory that RLIMIT_AS does not count, and IPC objects that outlive the worker
    "memfd_create",
    "memfd_secret",
    "shmget",
    "shmat",
    "shmctl",
    "msgget",
    "msgsnd",
    "msgrcv",
    "msgctl",
    "semget",
    "semop",
    "semctl",
    "semtimedop",
    "mq_open",
    "mq_unlink",
    "mq_timedsend",
    "mq_timedreceive",
    "mq_notify",
    "mq_getsetattr",
)
# Allowed only when their first argument is this process (kill, tgkill, sigqueue) or 0 (prlimit64,
# sched_*: "the caller").
SELF_PID_SYSCALLS = ("kill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo")
ZERO_PID_SYSCALLS = (
    "prlimit64",
    "sched_setaffinity",
    "sched_setscheduler",
    "sched_setparam",
    "sched_setattr",
    "sched_getaffinity",
    "sched_getscheduler",
    "sched_getparam",
    "sched_getattr",
)
# Newer than libseccomp 2.5's tables, by number (x86-64): statmount, listmount, setxattrat,
# getxattrat, listxattrat, removexattrat, open_tree_attr, file_getattr, file_setattr.
DENIED_NUMBERS = {"x86_64": (457, 458, 463, 464, 465, 466, 467, 468, 469)}
CLONE_THREAD = 0x00010000
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
SOCK_TYPE_MASK, SOCK_DGRAM, SOCK_SEQPACKET = 0xF, 2, 5
# Signals delivered through a file's owner (SIGIO/SIGURG, or any signal with F_SETSIG) skip kill():
# fcntl F_SETOWN, F_SETSIG, F_SETOWN_EX; ioctl FIOSETOWN, SIOCSPGRP, FIOASYNC; F_SETFL with O_ASYNC.
FCNTL_OWNER = (8, 10, 15)
IOCTL_OWNER = (0x8901, 0x8902, 0x5452)
F_SETFL, O_ASYNC = 4, 0o20000


def confine(policy: dict[str, Any]) -> Report:
    """Apply every layer `policy` asks for; what each did. Landlock's rules are made before the
    uid changes (they name folders only root may walk into) and enforced after."""
    seccomp = _import_seccomp()  # before any confinement: it looks for libseccomp with ldconfig
    report: Report = {"rlimits": _set_limits(policy)}
    rules, report["landlock"] = _landlock_rules(policy)
    report["uid"] = _drop_privileges(policy)
    if rules is not None:
        with rules:
            rules.restrict()
    report["seccomp"] = (
        _seccomp(seccomp) if not isinstance(seccomp, str) else _layer(False, seccomp)
    )
    return report


def use_libraries(known: dict[str, str]) -> None:
    """Answer ctypes' library lookups from `known` (found by the host) before running ldconfig."""
    import ctypes.util

    search = ctypes.util.find_library
    ctypes.util.find_library = lambda name: known.get(name) or search(name)


def die_with_parent(parent: int) -> None:
    """SIGKILL this process when the host's thread that started it ends (Linux; the host starts
    workers from a thread that lasts as long as it does). Set again after a uid change, which
    clears it; `parent` tells whether the parent died before it was set."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def _layer(active: bool, detail: str) -> dict[str, Any]:
    return {"active": active, "detail": detail}


def _set_limits(policy: dict[str, Any]) -> dict[str, Any]:
    limits = {
        resource.RLIMIT_AS: policy["memory_bytes"],
        resource.RLIMIT_CORE: 0,
        resource.RLIMIT_FSIZE: policy["file_bytes"],
        resource.RLIMIT_NOFILE: policy["open_files"],
        resource.RLIMIT_CPU: policy["cpu_seconds"],
    }
    for name in (
        "RLIMIT_RTPRIO",
        "RLIMIT_NICE",
        "RLIMIT_MEMLOCK",
    ):  # no real-time or raised priority
        if hasattr(resource, name):
            limits[getattr(resource, name)] = 0
    if os.geteuid() == 0:  # counted per uid: only meaningful for the uid the worker drops to
        limits[resource.RLIMIT_NPROC] = policy["threads"]
    for kind, value in limits.items():
        resource.setrlimit(kind, (value, value))
    return _layer(
        True,
        f"memory {policy['memory_bytes'] >> 20} MB, file {policy['file_bytes'] >> 20} MB, "
        f"{policy['open_files']} open files, {policy['cpu_seconds']} s CPU",
    )


def _drop_privileges(policy: dict[str, Any]) -> dict[str, Any]:
    """As root: become the unprivileged uid (which clears every capability). Python's own files
    under a folder that uid cannot enter (e.g. a root-only /root) stay importable through
    descriptors opened before the switch (a process may always walk its own /proc/self/fd)."""
    if os.geteuid() != 0:
        return _layer(True, f"runs as uid {os.geteuid()} (not root)")
    uid = policy["unprivileged_uid"]
    anchors = {
        root: os.open(root, os.O_PATH | os.O_CLOEXEC)
        for root in policy["read"]
        if os.path.isdir(root) and not _reachable_by_others(root)
    }
    parent = os.getppid()
    os.setgroups([])
    if hasattr(os, "setresuid"):  # real, effective and saved ids alike
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    else:  # (macOS) setuid as root sets all three
        os.setgid(uid)
        os.setuid(uid)
    die_with_parent(parent)
    if anchors:
        _reroot_imports({root: f"/proc/self/fd/{fd}" for root, fd in anchors.items()})
    try:
        os.setuid(0)
    except PermissionError:
        return _layer(True, f"root dropped to uid {uid}, a uid of its own, with no capabilities")
    raise RuntimeError("the worker could regain root after dropping it")


def _reachable_by_others(path: str) -> bool:
    """Can a uid that owns none of `path`'s folders walk down to it?"""
    current = "/"
    for part in [p for p in path.split("/") if p]:
        if not os.stat(current).st_mode & stat.S_IXOTH:
            return False
        current = os.path.join(current, part)
    return bool(os.stat(current).st_mode & stat.S_IXOTH)


def _reroot_imports(moved: dict[str, str]) -> None:
    """Point sys.path and loaded packages' __path__ at the new spellings of their folders."""

    def respell(path: str) -> str:
        for old, new in moved.items():
            if path == old or path.startswith(old + "/"):
                return new + path[len(old) :]
        return path

    sys.path[:] = [respell(p) for p in sys.path]
    for module in list(sys.modules.values()):
        package_path = getattr(module, "__path__", None)
        if isinstance(package_path, list):
            package_path[:] = [respell(p) for p in package_path]
    sys.path_importer_cache.clear()


def _landlock_rules(policy: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The Landlock ruleset for `policy`, ready to enforce (None where Landlock is unavailable)."""
    try:
        import landlockpy
        from landlockpy import AccessFS as A
    except ImportError as error:
        return None, _layer(False, f"unavailable: {error}")
    abi = landlockpy.abi_version()
    if abi < 1:
        return None, _layer(
            False, "unavailable: the kernel has no Landlock (Linux 5.13+ with it enabled)"
        )
    fs, net, scoped = (
        landlockpy.fs_for_abi(abi),
        landlockpy.net_for_abi(abi),
        landlockpy.scope_for_abi(abi),
    )
    read_file, read_dir = A.READ_FILE, A.READ_FILE | A.READ_DIR
    rules = landlockpy.Ruleset(handled_fs=fs, handled_net=net, scoped=scoped)
    for path in policy["read"]:
        if os.path.exists(path):
            rules.allow_path(path, read_dir if os.path.isdir(path) else read_file)
    for device in ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"):
        if os.path.exists(device):
            rules.allow_path(
                device, read_file | (A.WRITE_FILE if device == "/dev/null" else A.NONE)
            )
    what = ["files", "TCP" if net else "", "signals and abstract sockets" if scoped else ""]
    return rules, _layer(True, f"ABI {abi}: {', '.join(w for w in what if w)} confined")


def _import_seccomp() -> Any:
    """The pyseccomp module, or why it is unavailable."""
    try:
        import pyseccomp
    except (ImportError, RuntimeError) as error:  # RuntimeError: libseccomp.so.2 is not installed
        return f"unavailable: {error}"
    return pyseccomp


def _seccomp(sc: Any) -> dict[str, Any]:
    me = os.getpid()
    rules = sc.SyscallFilter(sc.ALLOW)
    rules.set_attr(sc.Attr.ACT_BADARCH, sc.KILL_PROCESS)  # no 32-bit or x32 system calls
    denied = sc.ERRNO(errno.EPERM)
    added = 0
    for name, args in [
        *((n, ()) for n in DENIED_SYSCALLS),
        *((n, ()) for n in DENIED_NUMBERS.get(platform.machine(), ())),
        *((n, (sc.Arg(0, sc.NE, me),)) for n in SELF_PID_SYSCALLS),
        *((n, (sc.Arg(0, sc.NE, 0),)) for n in ZERO_PID_SYSCALLS),
        ("clone", (sc.Arg(0, sc.MASKED_EQ, CLONE_THREAD, 0),)),
        *(("prctl", (sc.Arg(0, sc.EQ, option),)) for option in (PR_SET_PDEATHSIG, PR_SET_DUMPABLE)),
        *(
            ("socketpair", (sc.Arg(1, sc.MASKED_EQ, SOCK_TYPE_MASK, kind),))
            for kind in (SOCK_DGRAM, SOCK_SEQPACKET)
        ),  # datagrams could be sent to any path
        *(("fcntl", (sc.Arg(1, sc.EQ, command),)) for command in FCNTL_OWNER),
        *(("ioctl", (sc.Arg(1, sc.EQ, request),)) for request in IOCTL_OWNER),
        ("fcntl", (sc.Arg(1, sc.EQ, F_SETFL), sc.Arg(2, sc.MASKED_EQ, O_ASYNC, O_ASYNC))),
    ]:
        try:
            rules.add_rule(denied, name, *args)
            added += 1
        except OSError:
            pass  # not a system call of this kernel and architecture
    rules.add_rule(
        sc.ERRNO(errno.ENOSYS), "clone3"
    )  # its flags cannot be inspected: libc falls back to clone
    rules.load()
    return _layer(True, f"{added + 1} system calls denied or limited to the worker itself")
