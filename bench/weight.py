"""What a first visit downloads: every published file (the service worker keeps them all on the
first visit), raw, gzipped and brotli-compressed, the way a host that compresses them sends it.

`python -m bench.weight [checkout]` prints the totals and the largest files for this checkout's
build, or for another built checkout (bench/baseline.py makes one from a git revision). Gzip is
Python's at level 9; brotli is Node's zlib at quality 11 (Node is already here for the runtime;
Python's `brotli` module is not a dependency).
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

from scripts import build, site

# Reads file names from stdin, prints their brotli sizes as JSON.
BROTLI = """
const zlib = require("zlib"), fs = require("fs");
const names = JSON.parse(fs.readFileSync(0, "utf8"));
const q = zlib.constants.BROTLI_PARAM_QUALITY, hint = zlib.constants.BROTLI_PARAM_SIZE_HINT;
console.log(JSON.stringify(names.map((n) => {
  const data = fs.readFileSync(n);
  return zlib.brotliCompressSync(data, { params: { [q]: 11, [hint]: data.length } }).length;
})));
"""


def sizes(root: Path = build.ROOT) -> dict[str, tuple[int, int, int]]:
    """Each published file: (raw, gzip, brotli) bytes."""
    names = site.published_files(root)
    paths = [str(root / n) for n in names]
    found = subprocess.run(
        ["node", "-e", BROTLI], input=json.dumps(paths), capture_output=True, text=True, check=True
    )
    brotli = json.loads(found.stdout)
    return {
        name: (len(data := (root / name).read_bytes()), len(gzip.compress(data, 9)), br)
        for name, br in zip(names, brotli, strict=True)
    }


def run(root: Path = build.ROOT) -> list[str]:
    found = sizes(root)
    raw, gz, br = (sum(s[i] for s in found.values()) / 1e6 for i in range(3))
    lines = [f"first visit ({len(found)} files): {raw:.2f} MB raw, {gz:.2f} gzip, {br:.2f} brotli"]
    own = [s for name, s in found.items() if not build.is_runtime(name)]
    lines.append(
        f"  of which the app's own: {sum(s[1] for s in own) / 1e6:.3f} MB gzip,"
        f" {sum(s[2] for s in own) / 1e6:.3f} brotli"
    )
    for name, (r, g, b) in sorted(found.items(), key=lambda kv: -kv[1][1])[:8]:
        lines.append(f"  {name}: {r / 1e6:.3f} MB raw, {g / 1e6:.3f} gzip, {b / 1e6:.3f} brotli")
    return lines


if __name__ == "__main__":
    print("\n".join(run(Path(sys.argv[1]) if len(sys.argv) > 1 else build.ROOT)))
