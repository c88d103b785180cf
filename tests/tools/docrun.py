#!/usr/bin/env python3
"""Run every command the documentation shows, and compare what it prints.

Usage: docrun.py SCRATCH PAGE...   (CUBEGEN: the binary; WRAP: e.g. valgrind)

Run by tests/docs.sh on README.md, docs/*.md and the manual page. The rules
a page follows (docs/development.md repeats them for writers):

- Every fenced code block of a Markdown page names its kind: `console`
  (commands after "$ " and what they print), `sh` (commands or a script to
  run, output not shown) or `text` (anything else: file contents, a
  synopsis). A block without a kind is an error, so no command hides.
- console: each "$ " line is a command (a line ending in a backslash goes
  on); the lines up to the next command are its output, stdout and stderr
  together, compared exactly but for the time a run took ("time: 0.002118
  s", "seconds": 0.007580: the digits, not their form) and "..." lines, which stand for any number of lines.
  A command shown with no output is run and must exit 0.
- sh: a block starting "#!" is a script, run once, or once per task of a
  Slurm job array ("#SBATCH --array=A-B", its "--output" pattern honoured);
  otherwise each line is a command that must exit 0. The few commands that
  cannot run inside a test (make itself) are listed in ELSEWHERE with the
  place that runs them.
- Every relative link of a Markdown page names a file of the repository,
  and a "#anchor" a heading of the page it names.
- The manual page's .EX blocks whose first line starts with "$ " are
  console blocks.

Each page runs in its own scratch folder holding a copy of examples/, with
`cubegen` first on PATH; the commands of a page run in order, so a later
one sees the files an earlier one wrote.
"""
import os
import re
import shutil
import subprocess
import sys

# Commands shown that a test cannot run from inside `make test`, and what
# runs them instead.
ELSEWHERE = {
    "make run": "the README's set-up, run by hand on a fresh machine",
    "make test": ".ci/run",
    "make asan": ".ci/run",
    "make tsan": ".ci/run",
    "make valgrind": ".ci/run",
    "make fuzz": ".ci/run (FUZZ_SECONDS=60)",
    "make warnings": ".ci/run",
    "make bench": "by hand, for docs/figures.md",
    "make bench-compare BASE=HEAD~1 GROUP=--solve ROUNDS=3":
        "by hand (minutes); tests/bench_compare.sh checks its table and refusals",
    "make": "every make target",
    "sudo make install": "tests/install.sh (into a staging folder)",
    "make install PREFIX=$HOME/.local": "tests/install.sh (into a staging folder)",
    "make install DESTDIR=/tmp/stage PREFIX=/usr": "tests/install.sh",
    "make uninstall": "tests/install.sh",
}

VARIABLE = [
    (re.compile(r"time: [0-9]+\.[0-9]{6} s"), "time: T s"),
    (re.compile(r'"seconds": [0-9]+\.[0-9]{6}'), '"seconds": T'),
]


def normal(line):
    for rx, to in VARIABLE:
        line = rx.sub(to, line)
    return line.rstrip()


def matches(want, got):
    """want: lines with "..." wildcards; got: lines. True when they agree."""
    segs = [[]]
    for w in want:
        if w.strip() == "...":
            segs.append([])
        else:
            segs[-1].append(normal(w))
    got = [normal(g) for g in got]
    first, rest = segs[0], segs[1:]
    if got[:len(first)] != first:
        return False
    pos = len(first)
    if not rest:
        return pos == len(got)
    for i, seg in enumerate(rest):
        last = i == len(rest) - 1
        if last:
            return not seg or (len(got) - len(seg) >= pos and got[len(got) - len(seg):] == seg)
        while pos + len(seg) <= len(got) and got[pos:pos + len(seg)] != seg:
            pos += 1
        if pos + len(seg) > len(got):
            return False
        pos += len(seg)
    return True


def md_blocks(path):
    """(kind, first line number, lines) of every fenced block."""
    blocks, cur = [], None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if cur is None:
                m = re.match(r"^ {0,3}```(.*)$", line)
                if m:
                    cur = (m.group(1).strip(), n, [], len(line) - len(line.lstrip()))
            elif line.strip() == "```":
                blocks.append(cur[:3])
                cur = None
            else:
                cur[2].append(line[cur[3]:] if line[:cur[3]].strip() == "" else line)
    if cur is not None:
        blocks.append(("unclosed", cur[1], []))
    return blocks


def man_unescape(s):
    s = s.replace("\\-", "-").replace("\\(aq", "'").replace("\\(dq", '"')
    s = s.replace("\\e", "\\").replace("\\&", "").replace("\\~", " ")
    return s


def man_blocks(path):
    blocks, cur = [], None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line == ".EX":
                cur = (n, [])
            elif line == ".EE" and cur is not None:
                lines = [man_unescape(x) for x in cur[1]]
                kind = "console" if lines and lines[0].startswith("$ ") else "text"
                blocks.append((kind, cur[0], lines))
                cur = None
            elif cur is not None:
                cur[1].append(line)
    return blocks


def logical(lines):
    """Join lines ending in a backslash with the next."""
    out, acc = [], ""
    for line in lines:
        if line.endswith("\\"):
            acc += line + "\n"
        else:
            out.append(acc + line)
            acc = ""
    if acc:
        out.append(acc)
    return out


class Runner:
    def __init__(self, scratch, env):
        self.scratch, self.env = scratch, env
        self.ran = self.compared = self.skipped = 0
        self.failures = []

    def sh(self, cmd, extra=None, stdout=None):
        env = dict(self.env)
        env.update(extra or {})
        try:
            p = subprocess.run(["sh", "-c", cmd], cwd=self.scratch, env=env,
                               stdin=subprocess.DEVNULL, timeout=300,
                               stdout=stdout or subprocess.PIPE,
                               stderr=subprocess.STDOUT if stdout is None else subprocess.PIPE)
        except subprocess.TimeoutExpired:
            return 124, "timed out after 300 s"
        self.ran += 1
        out = p.stdout if stdout is None else p.stderr
        return p.returncode, out.decode("utf-8", "replace")

    def fail(self, where, what):
        self.failures.append("%s: %s" % (where, what))

    def console(self, where, lines):
        cmds = []
        for line in lines:
            if line.startswith("$ "):
                cmds.append([line[2:], []])
            elif cmds and cmds[-1][0].endswith("\\") and not cmds[-1][1]:
                cmds[-1][0] += "\n" + line
            elif cmds:
                cmds[-1][1].append(line)
            else:
                self.fail(where, "console block does not start with a command")
                return
        for cmd, want in cmds:
            rc, out = self.sh(cmd)
            got = out.split("\n")
            if got and got[-1] == "":
                got.pop()
            if not want:
                if rc != 0:
                    self.fail(where, "`%s` exited %d:\n%s" % (cmd, rc, out))
                continue
            self.compared += 1
            if not matches(want, got):
                self.fail(where, "`%s` printed:\n%s\nthe page shows:\n%s"
                          % (cmd, "\n".join(got), "\n".join(want)))

    def script(self, where, lines):
        text = "\n".join(lines) + "\n"
        m = re.search(r"^#SBATCH .*--array=(\d+)-(\d+)", text, re.M)
        if not m:
            rc, out = self.sh(text)
            if rc != 0:
                self.fail(where, "script exited %d:\n%s" % (rc, out))
            return
        o = re.search(r"^#SBATCH .*--output=(\S+)", text, re.M)
        for task in range(int(m.group(1)), int(m.group(2)) + 1):
            extra = {"SLURM_ARRAY_TASK_ID": str(task), "SLURM_CPUS_PER_TASK": "1"}
            if o:
                name = o.group(1).replace("%a", str(task))
                with open(os.path.join(self.scratch, name), "wb") as f:
                    rc, out = self.sh(text, extra, stdout=f)
            else:
                rc, out = self.sh(text, extra)
            if rc != 0:
                self.fail(where, "task %d exited %d:\n%s" % (task, rc, out))

    def commands(self, where, lines):
        if lines and lines[0].startswith("#!"):
            self.script(where, lines)
            return
        for cmd in logical(lines):
            bare = re.sub(r"\s+#.*$", "", cmd).strip()
            if not bare or bare.startswith("#"):
                continue
            if bare in ELSEWHERE:
                self.skipped += 1
                continue
            rc, out = self.sh(cmd)
            if rc != 0:
                self.fail(where, "`%s` exited %d:\n%s" % (cmd, rc, out))


def slug(title):
    """The anchor GitHub gives a heading."""
    title = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return title.replace(" ", "-")


def anchors(path):
    out = set()
    with open(path, encoding="utf-8") as f:
        fenced = False
        for line in f:
            if line.lstrip().startswith("```"):
                fenced = not fenced
            elif not fenced and re.match(r"^#{1,6} ", line):
                out.add(slug(line.lstrip("#")))
            out.update(re.findall(r'<a id="([^"]+)"></a>', line))
    return out


def check_links(pages, root):
    """Every relative link of a Markdown page names a file of the
    repository, and its #anchor a heading of that page."""
    bad = []
    for page in pages:
        if not page.endswith(".md"):
            continue
        text = open(page, encoding="utf-8").read()
        text = re.sub(r"(?ms)^ {0,3}```.*?^ {0,3}```", "", text)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"^[a-z]+:", target):
                continue
            name, _, anchor = target.partition("#")
            path = os.path.normpath(os.path.join(os.path.dirname(page), name)) if name else page
            where = "%s: link to %s" % (os.path.relpath(page, root), target)
            if not os.path.exists(path):
                bad.append(where + ": no such file")
            elif anchor and path.endswith(".md") and anchor not in anchors(path):
                bad.append(where + ": no such heading")
    return bad


def main():
    scratch, pages = sys.argv[1], sys.argv[2:]
    cubegen = os.environ["CUBEGEN"]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    total = 0
    failures = check_links(pages, root)
    for page in pages:
        name = os.path.relpath(page, root).replace("/", "_")
        dir_ = os.path.join(scratch, name)
        shutil.rmtree(dir_, ignore_errors=True)
        os.makedirs(os.path.join(dir_, "bin"))
        shutil.copytree(os.path.join(root, "examples"), os.path.join(dir_, "examples"))
        with open(os.path.join(dir_, "bin", "cubegen"), "w") as f:
            f.write('#!/bin/sh\nexec %s "%s" "$@"\n' % (os.environ.get("WRAP", ""), cubegen))
        os.chmod(os.path.join(dir_, "bin", "cubegen"), 0o755)
        env = dict(os.environ)
        env.update({"PATH": os.path.join(dir_, "bin") + ":" + env["PATH"],
                    "HOME": dir_, "LC_ALL": "C"})
        r = Runner(dir_, env)
        blocks = man_blocks(page) if page.endswith(".1") else md_blocks(page)
        for kind, line, lines in blocks:
            where = "%s:%d" % (os.path.relpath(page, root), line)
            if kind == "console":
                r.console(where, lines)
            elif kind == "sh":
                r.commands(where, lines)
            elif kind != "text":
                r.fail(where, "a code block must say console, sh or text, not '%s'" % kind)
        print("%s: %d commands run, %d outputs compared, %d run elsewhere"
              % (os.path.relpath(page, root), r.ran, r.compared, r.skipped))
        total += r.ran
        failures += r.failures
    for f in failures:
        print("FAIL " + f)
    print("docs: %d commands run, %d failures" % (total, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
