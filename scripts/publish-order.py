#!/usr/bin/env python3
"""Print the workspace's publishable crates in an order where each comes after every
crate it depends on (normal and build dependencies; dev-dependencies are dropped from
packages). `publish = false` crates (xtask, test-support) are left out.

    python3 scripts/publish-order.py                 # the order, one crate a line
    for c in $(python3 scripts/publish-order.py); do cargo publish -p "$c"; done
"""
import json
import subprocess

meta = json.loads(
    subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--no-deps"],
        check=True, capture_output=True, text=True,
    ).stdout
)
packages = {p["name"]: p for p in meta["packages"]}
publishable = {n for n, p in packages.items() if p.get("publish") != []}
deps = {
    n: sorted(
        d["name"] for d in packages[n]["dependencies"]
        if d["name"] in publishable and d.get("kind") != "dev"
    )
    for n in publishable
}
order, done, visiting = [], set(), set()


def visit(name):
    if name in done:
        return
    if name in visiting:
        raise SystemExit(f"dependency cycle through {name}")
    visiting.add(name)
    for d in deps[name]:
        visit(d)
    visiting.discard(name)
    done.add(name)
    order.append(name)


for name in sorted(publishable):
    visit(name)
print("\n".join(order))
