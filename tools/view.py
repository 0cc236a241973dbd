"""What the namespace sandbox contains: a filesystem view built by allow-list, never by masking.

The view starts empty (bwrap's root is a fresh tmpfs) and gains only: the system folders
(``/usr`` and the ``/bin``, ``/lib*`` links or folders), a short list of ``/etc`` entries that
programs need (no shadow files, no harness configuration), a fresh ``/proc`` and a minimal
``/dev`` (plus GPU device nodes when asked), a private ``/tmp`` and ``/dev/shm``, the agent's
interpreter prefixes, and the run's own folders. A path that is not added is not there.

Each sandbox also has a harness-side control folder (``fill_control``): the view's
``/etc/passwd`` and ``/etc/group``, the agent's fresh home, and the folder of kernel sockets.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

MountKind = Literal["ro", "rw", "dev", "symlink", "tmpfs", "proc", "devfs", "dir"]

SYSTEM_DIRS = ("usr",)
"""Bound read-only whole: programs, shared libraries, the system Python, CUDA under /usr."""
LIB_LINKS = ("bin", "sbin", "lib", "lib32", "lib64", "libx32")
"""Top-level folders that are links into /usr on merged-/usr systems (bound when real folders)."""
ETC_ENTRIES = (
    "alternatives", "ca-certificates", "crypto-policies", "debian_version", "fonts", "gai.conf",
    "host.conf", "hostname", "hosts", "ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime",
    "lsb-release", "mime.types", "nsswitch.conf", "nvidia", "OpenCL", "os-release", "pki",
    "protocols", "resolv.conf", "services", "ssl", "timezone", "vulkan",
)  # fmt: skip
"""The ``/etc`` entries the view holds (when the host has them); ``passwd`` and ``group`` are
written fresh for each sandbox, listing only root, the agent and ``nobody``. Not ``pip.conf``:
it can hold a private index's credentials, and the agent's pip needs none of it (PyPI, or
``--agent-network off`` and no index at all); a harness whose agents must use a mirror gives
them ``PIP_INDEX_URL`` through ``Sandbox.create(extra_env=...)``."""
ETC_PREFIXES = ("python3",)
"""``/etc`` entries starting with these are added too (Debian's ``/etc/python3.11``)."""
SYS_ENTRIES = ("block", "bus", "class", "dev", "devices")
"""Read-only ``/sys`` parts that hardware discovery (CPU counts, NVML, hwloc) reads."""
_GPU_NODE = re.compile(r"nvidia(\d+|ctl|-uvm|-uvm-tools|-modeset|-caps)$|kfd$|dri$")


@dataclass(frozen=True)
class Mount:
    """One entry of the view, in bwrap's terms. ``src`` is a host path (or a link's target)."""

    kind: MountKind
    dest: str
    src: str = ""
    mode: int | None = None
    """Permissions of a tmpfs or folder the view creates (bwrap's ``--perms``)."""


def gpu_device_nodes(dev: Path = Path("/dev")) -> list[Path]:
    """The GPU device nodes under ``dev``: NVIDIA's (``nvidia0``..., ``nvidiactl``,
    ``nvidia-uvm``, ``nvidia-caps/``) and AMD's (``kfd``, ``dri/``), sorted."""
    try:
        names = os.listdir(dev)
    except OSError:
        return []
    return sorted(dev / name for name in names if _GPU_NODE.fullmatch(name))


def system_mounts(root: Path = Path("/")) -> list[Mount]:
    """``/usr``, the ``/bin``-``/lib*`` links (or folders), the allowed ``/etc`` and ``/sys``."""
    mounts = [Mount("ro", f"/{name}", str(root / name)) for name in SYSTEM_DIRS]
    for name in LIB_LINKS:
        path = root / name
        if path.is_symlink():
            mounts.append(Mount("symlink", f"/{name}", os.readlink(path)))
        elif path.is_dir():
            mounts.append(Mount("ro", f"/{name}", str(path)))
    etc = root / "etc"
    names = set(ETC_ENTRIES)
    if etc.is_dir():
        names |= {n for n in os.listdir(etc) if n.startswith(ETC_PREFIXES)}
    for name in sorted(names):
        path = etc / name
        if path.exists():  # a link is bound as what it points to, so it cannot dangle
            mounts.append(Mount("ro", f"/etc/{name}", os.path.realpath(path)))
    mounts.append(Mount("symlink", "/etc/mtab", "../proc/self/mounts"))
    for name in SYS_ENTRIES:
        if (root / "sys" / name).is_dir():
            mounts.append(Mount("ro", f"/sys/{name}", str(root / "sys" / name)))
    return mounts


def device_mounts(gpu_nodes: Sequence[Path] = ()) -> list[Mount]:
    """A fresh ``/proc`` (of the sandbox's PID namespace), a minimal ``/dev`` with a private
    ``/dev/shm``, and the given GPU device nodes."""
    mounts = [
        Mount("proc", "/proc"),
        Mount("devfs", "/dev"),
        Mount("tmpfs", "/dev/shm", mode=0o1777),
    ]
    return mounts + [Mount("dev", str(node), str(node)) for node in gpu_nodes]


def covered(path: str, mounts: Iterable[Mount]) -> bool:
    """True when ``path`` is already inside a bound folder of ``mounts``."""
    return any(
        m.kind in ("ro", "rw") and (path == m.dest or path.startswith(m.dest.rstrip("/") + "/"))
        for m in mounts
    )


def bwrap_args(mounts: Sequence[Mount]) -> list[str]:
    """bwrap arguments building ``mounts`` in order; every folder the view must create on the
    way to a mount point is made 0755 (bwrap would make it 0700, closed to the agent)."""
    args: list[str] = []
    made: set[str] = {"/"}
    for i, mount in enumerate(mounts):
        for parent in reversed(Path(mount.dest).parents):
            p = str(parent)
            if p not in made and not covered(p, mounts[:i]):
                args += ["--perms", "0755", "--dir", p]
            made.add(p)
        made.add(mount.dest)
        if mount.mode is not None:
            args += ["--perms", f"{mount.mode:04o}"]
        if mount.kind == "ro":
            args += ["--ro-bind", mount.src, mount.dest]
        elif mount.kind == "rw":
            args += ["--bind", mount.src, mount.dest]
        elif mount.kind == "dev":
            args += ["--dev-bind", mount.src, mount.dest]
        elif mount.kind == "symlink":
            args += ["--symlink", mount.src, mount.dest]
        elif mount.kind == "tmpfs":
            args += ["--tmpfs", mount.dest]
        elif mount.kind == "proc":
            args += ["--proc", mount.dest]
        elif mount.kind == "devfs":
            args += ["--dev", mount.dest]
        else:
            args += ["--dir", mount.dest]
    return args


def _passwd(uid: int, gid: int, user: str, home: str, groups: Sequence[int]) -> tuple[str, str]:
    """``/etc/passwd`` and ``/etc/group`` for the view: root, the agent and nobody only."""
    passwd = (
        "root:x:0:0:root:/root:/usr/sbin/nologin\n"
        f"{user}:x:{uid}:{gid}:{user}:{home}:/bin/bash\n"
        "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
    )
    names = {0: "root", gid: user, 65534: "nogroup"}
    group = "".join(
        f"{names.get(g, f'g{g}')}:x:{g}:{user if g != gid else ''}\n"
        for g in sorted({0, 65534, gid, *groups})
    )
    return passwd, group


def library_path(env: dict[str, str]) -> list[str]:
    return [p for p in env.get("LD_LIBRARY_PATH", "").split(":") if p]


def view_mounts(
    *,
    workspace_root: Path,
    data: Path,
    prefixes: Sequence[str | Path],
    control: Path,
    home: str,
    gpu: bool,
    dev: Path = Path("/dev"),
) -> list[Mount]:
    """Everything one run's sandbox holds, in mount order (a later mount may sit inside an
    earlier one, never the reverse). GPU device nodes under ``dev`` are bound only with
    ``gpu``. A prefix that is ``/`` or holds the workspace is left out: it would bring in
    whatever lies beside the workspace, other runs included."""
    system = system_mounts()
    mounts = [m for m in system if m.dest not in ("/etc/passwd", "/etc/group")]
    mounts += [
        Mount("ro", "/etc/passwd", str(control / "etc" / "passwd")),
        Mount("ro", "/etc/group", str(control / "etc" / "group")),
    ]
    nodes = gpu_device_nodes(dev) if gpu else []
    mounts += device_mounts(nodes)
    mounts.append(Mount("tmpfs", "/tmp", mode=0o1777))
    mounts.append(Mount("rw", home, str(control / "home")))
    for prefix in dict.fromkeys(os.path.normpath(p) for p in prefixes):
        wide = prefix == "/" or workspace_root.is_relative_to(prefix)
        usable = os.path.isabs(prefix) and os.path.isdir(prefix) and not wide
        if usable and not covered(prefix, mounts):
            mounts.append(Mount("ro", prefix, prefix))
    mounts.append(Mount("rw", str(workspace_root), str(workspace_root)))
    mounts.append(Mount("ro", str(data), str(data)))
    mounts.append(Mount("rw", str(control / "kernel"), str(control / "kernel")))
    return mounts


def fill_control(
    control: Path, uid: int, gid: int, user: str, home: str, groups: Sequence[int]
) -> None:
    """Write the view's ``etc/passwd`` and ``etc/group`` into ``control`` (root's, 0700), and
    make the agent's ``home/`` and root's ``kernel/`` folder (for kernels' folders) there."""
    (control / "etc").mkdir(mode=0o755)
    passwd, group = _passwd(uid, gid, user, home, groups)
    for name, text in (("passwd", passwd), ("group", group)):
        (control / "etc" / name).write_text(text)
        os.chmod(control / "etc" / name, 0o644)
    (control / "home").mkdir(mode=0o700)
    os.chown(control / "home", uid, gid)
    (control / "kernel").mkdir(mode=0o711)  # root's: the agent cannot swap a kernel's folder
