#!/usr/bin/env python3
"""Build the two offline OCI images the e2e bed needs and write them as one OCI
image-layout tar that `ctr images import` understands.

usage: mk-oci-images.py OUT.tar --pause PAUSE_BIN [--busybox BUSYBOX_BIN]

Images (amd64/linux, uncompressed layers, deterministic: same inputs, same digests):
  localhost/e2e/pause:1     the static pause binary (the CRI plugin's sandbox_image)
  localhost/e2e/busybox:1   busybox with its applets as hard links, Cmd ["sh"]; a dynamic
                            busybox (Debian package "busybox") is copied with the
                            libraries ldd lists, a static one (busybox-static) alone
"""
import argparse
import hashlib
import io
import json
import os
import subprocess
import tarfile

PATH_ENV = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
PASSWD = "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/home:/bin/false\n"
GROUP = "root:x:0:\nnogroup:x:65534:\n"


class Layer:
    """One uncompressed tar layer with fixed owners and times."""

    def __init__(self):
        self.buf = io.BytesIO()
        self.tar = tarfile.open(fileobj=self.buf, mode="w", format=tarfile.PAX_FORMAT)
        self.dirs = set()

    def _info(self, name, typ, mode):
        ti = tarfile.TarInfo(name)
        ti.type, ti.mode, ti.mtime, ti.uid, ti.gid = typ, mode, 0, 0, 0
        ti.uname = ti.gname = "root"
        return ti

    def dir(self, name, mode=0o755):
        if name not in self.dirs:
            self.dirs.add(name)
            self.tar.addfile(self._info(name, tarfile.DIRTYPE, mode))

    def parents(self, path):
        parts = path.split("/")[:-1]
        for i in range(len(parts)):
            self.dir("/".join(parts[: i + 1]))

    def file(self, name, data, mode=0o644):
        if isinstance(data, str):
            data = data.encode()
        self.parents(name)
        ti = self._info(name, tarfile.REGTYPE, mode)
        ti.size = len(data)
        self.tar.addfile(ti, io.BytesIO(data))

    def hardlink(self, name, target):
        ti = self._info(name, tarfile.LNKTYPE, 0o755)
        ti.linkname = target
        self.tar.addfile(ti)

    def symlink(self, name, target):
        ti = self._info(name, tarfile.SYMTYPE, 0o777)
        ti.linkname = target
        self.tar.addfile(ti)

    def close(self):
        self.tar.close()
        return self.buf.getvalue()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def shared_libs(binary):
    """(path-in-image, host-file) for each library ldd lists; [] for a static binary."""
    r = subprocess.run(["ldd", binary], capture_output=True, text=True)
    libs = []
    for line in r.stdout.splitlines():
        parts = line.split()
        if "=>" in parts:
            i = parts.index("=>")
            if i + 1 < len(parts) and parts[i + 1].startswith("/"):
                libs.append(parts[i + 1])
        elif parts and parts[0].startswith("/"):
            libs.append(parts[0])  # the dynamic loader
    return [(lib.lstrip("/"), os.path.realpath(lib)) for lib in libs]


def busybox_layer(busybox):
    layer = Layer()
    for d in ["bin", "dev", "etc", "home", "proc", "root", "run", "sys", "usr", "var"]:
        layer.dir(d, 0o700 if d == "root" else 0o755)
    layer.dir("tmp", 0o1777)
    layer.file("bin/busybox", read(busybox), 0o755)
    for in_image, host_file in shared_libs(busybox):
        layer.file(in_image, read(host_file), 0o755)
    applets = subprocess.run([busybox, "--list"], check=True, capture_output=True, text=True)
    for applet in sorted(set(applets.stdout.split()) - {"busybox"}):
        layer.hardlink("bin/" + applet, "bin/busybox")
    layer.symlink("var/run", "../run")
    layer.symlink("sbin", "bin")
    layer.symlink("usr/bin", "../bin")
    layer.symlink("usr/sbin", "../bin")
    layer.file("etc/passwd", PASSWD)
    layer.file("etc/group", GROUP)
    return layer.close()


def pause_layer(pause):
    layer = Layer()
    layer.file("pause", read(pause), 0o755)
    return layer.close()


class Store:
    """Blobs and manifests of one OCI image layout."""

    def __init__(self):
        self.blobs = {}
        self.manifests = []

    def add_blob(self, data):
        digest = "sha256:" + hashlib.sha256(data).hexdigest()
        self.blobs[digest] = data
        return digest

    def add_json(self, value):
        data = json.dumps(value, sort_keys=True, separators=(",", ":")).encode()
        return self.add_blob(data), len(data)

    def add_image(self, name, layers, cfg):
        descs = [{"mediaType": "application/vnd.oci.image.layer.v1.tar",
                  "digest": self.add_blob(data), "size": len(data)} for data in layers]
        config = {
            "architecture": "amd64", "os": "linux", "created": "1970-01-01T00:00:00Z",
            "config": dict({"Env": [PATH_ENV], "WorkingDir": "/"}, **cfg),
            # uncompressed layers: digest == diff_id
            "rootfs": {"type": "layers", "diff_ids": [d["digest"] for d in descs]},
        }
        cdg, csize = self.add_json(config)
        manifest = {"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
                    "config": {"mediaType": "application/vnd.oci.image.config.v1+json",
                               "digest": cdg, "size": csize},
                    "layers": descs}
        mdg, msize = self.add_json(manifest)
        self.manifests.append({
            "mediaType": "application/vnd.oci.image.manifest.v1+json",
            "digest": mdg, "size": msize,
            "platform": {"architecture": "amd64", "os": "linux"},
            "annotations": {"io.containerd.image.name": name,
                            "org.opencontainers.image.ref.name": name.rsplit(":", 1)[-1]},
        })

    def write(self, path):
        tmp = path + ".tmp"
        with tarfile.open(tmp, "w", format=tarfile.PAX_FORMAT) as t:
            def add(name, data):
                ti = tarfile.TarInfo(name)
                ti.size, ti.mtime, ti.mode = len(data), 0, 0o644
                t.addfile(ti, io.BytesIO(data))
            add("oci-layout", b'{"imageLayoutVersion":"1.0.0"}')
            add("index.json", json.dumps({"schemaVersion": 2, "manifests": self.manifests}).encode())
            for digest, data in sorted(self.blobs.items()):
                add("blobs/sha256/" + digest.split(":")[1], data)
        os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--pause", required=True)
    ap.add_argument("--busybox", default="/bin/busybox")
    a = ap.parse_args()
    store = Store()
    store.add_image("localhost/e2e/pause:1", [pause_layer(a.pause)], {"Entrypoint": ["/pause"]})
    store.add_image("localhost/e2e/busybox:1", [busybox_layer(a.busybox)], {"Cmd": ["sh"]})
    store.write(a.out)


if __name__ == "__main__":
    main()
