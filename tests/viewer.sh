#!/usr/bin/env bash
# viewer.sh: the 3D viewer (web/) in a real browser. One headless
# Chromium, driven over its DevTools pipe (tests/tools/browser.py), opens
# each page in a tab of its own; the page's own report on <body> (data-drawn, -pieces,
# -triangles, -step, -ids, -centres) is checked against its data; a
# screenshot must show each reported piece at its reported pixel in that
# piece's colour; the page must log nothing to the console; a pieces page
# must hold nothing of the answer.
#
# Run by `make test` as: CUBEGEN=/abs/cubegen PNGPICK=/abs/pngpick bash tests/viewer.sh
# With PAGES="a/pieces.html b/solution.html#step=2 ..." it tests those
# pages (with those fragments) instead of the pages it makes itself from
# web/ and sample data. A missing chromium, pngpick or python3 is a
# failure, not a skip.
set -u
here=$(cd "$(dirname "$0")" && pwd)
web=$(cd "$here/../web" && pwd)
PNGPICK=${PNGPICK:-}
CHROMIUM=${CHROMIUM:-chromium}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
ok() { echo "ok   $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }
not() { ! "$@"; }

# make_page TEMPLATE_DIR DATA_JSON OUT_HTML: the page as the C side
# writes it: page.html with its markers replaced by the title (from the
# data, HTML-escaped), viewer.css, the data ("</" written "<\/", which
# JSON allows) and viewer.js.
make_page() {
	local title
	title=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["title"])' "$2") || return 1
	TITLE=$title awk -v cssf="$1/viewer.css" -v jsf="$1/viewer.js" -v dataf="$2" '
		function slurp(f,   s, line) {
			s = ""
			while ((getline line < f) > 0) s = s line "\n"
			close(f)
			return s
		}
		# every m in s replaced by r, r taken literally
		function rep(s, m, r,   i, out) {
			out = ""
			while ((i = index(s, m)) > 0) {
				out = out substr(s, 1, i - 1) r
				s = substr(s, i + length(m))
			}
			return out s
		}
		BEGIN {
			css = slurp(cssf); js = slurp(jsf)
			data = rep(slurp(dataf), "</", "<\\/")
			t = rep(ENVIRON["TITLE"], "&", "&amp;")
			t = rep(rep(rep(t, "<", "&lt;"), ">", "&gt;"), "\"", "&quot;")
		}
		{
			line = rep($0, "<!--CUBEGEN-TITLE-->", t)
			line = rep(line, "<!--CUBEGEN-CSS-->", css)
			line = rep(line, "<!--CUBEGEN-DATA-->", data)
			print rep(line, "<!--CUBEGEN-JS-->", js)
		}' "$1/page.html" > "$3"
}

# The helper that reads a page's data and the browser's DOM dump
# (python3, which `make deps` installs for the tests).
cat > "$tmp/helper.py" <<'EOF'
import glob, html, json, math, os, re, shlex, sys

def data_of(path):
    src = open(path, encoding="utf-8").read()
    m = re.search(r'<script type="application/json" id="cubegen-data">(.*?)</script>', src, re.S)
    return json.loads(m.group(1)), src

cmd = sys.argv[1]
if cmd == "facts":
    # facts PAGE FRAGMENT DOM: shell assignments of what the page holds,
    # what the fragment asks for and what the DOM reports
    d, _ = data_of(sys.argv[2])
    frag, dom = sys.argv[3], open(sys.argv[4], encoding="utf-8").read()
    m = re.search(r"<body([^>]*)>", dom)
    a = dict(re.findall(r'([\w-]+)="([^"]*)"', m.group(1))) if m else {}
    steps = d.get("steps", []) if d.get("page") == "solution" else []
    want = len(steps) - 1 if steps else -1
    for v in re.findall(r"(?:^#|&)step=([^&]*)", frag):
        if re.fullmatch(r"\d+", v) and int(v) < len(steps):
            want = int(v)
    body = re.sub(r"<script.*?</script>", "", dom[dom.find("<body"):], flags=re.S)
    t = re.search(r'id="step-text"[^>]*>(.*?)</p>', body, re.S)
    ids = a.get("data-ids", "").split(",") if a.get("data-ids") else []
    cs = a.get("data-centres", "").split(";") if a.get("data-centres") else []
    pts = ["%s %s" % (i, c.replace(",", " ")) for i, c in zip(ids, cs) if c != "-1,-1"]
    facts = {"kind": d.get("page", ""), "npieces": len(d["pieces"]), "want": want,
             "drawn": a.get("data-drawn", ""), "pieces": a.get("data-pieces", ""),
             "tris": a.get("data-triangles", ""), "step": a.get("data-step", ""),
             "ncentres": len(cs) if len(cs) == len(ids) else -1,
             "steptext_ok": int(bool(steps and t and html.unescape(t.group(1)) == steps[want]["text"])),
             "stepui": sum(s in body for s in ('id="step-text"', 'aria-label="next step"',
                           'aria-label="previous step"', 'aria-label="play"', 'aria-label="explode"')),
             "points": "\n".join(pts)}
    for k, v in facts.items():
        print("%s=%s" % (k, shlex.quote(str(v))))
elif cmd == "noanswer":
    # noanswer PAGE: a pieces page holds no "steps", nor any step's text
    # of the solution pages in its folder
    d, src = data_of(sys.argv[2])
    if '"steps"' in src or "steps" in d:
        sys.exit(1)
    for sol in glob.glob(os.path.join(os.path.dirname(sys.argv[2]), "*.html")):
        try:
            s = data_of(sol)[0]
        except Exception:
            continue
        for t in (st["text"] for st in s.get("steps", []) if s.get("page") == "solution"):
            if t and (t in src or json.dumps(t)[1:-1] in src):
                sys.exit(1)
elif cmd == "colours":
    # colours PAGE, lines "ID X Y R G B" in: per line "0|1 what": is the
    # pixel in piece ID's colour? Lambert only scales a colour, so the
    # pixel must point the same way as the colour (within 6 degrees, and
    # nearer it than any other piece's), at 0.25..1.1 of its length.
    d, _ = data_of(sys.argv[2])
    cols = [p["colour"] for p in d["pieces"]]
    def angle(a, b):
        la, lb = math.hypot(*a), math.hypot(*b)
        if la == 0 or lb == 0:
            return 180.0
        return math.degrees(math.acos(max(-1, min(1, sum(x * y for x, y in zip(a, b)) / la / lb))))
    for line in sys.stdin:
        i, x, y, *px = [int(v) for v in line.split()]
        own = angle(px, cols[i])
        k = math.hypot(*px) / max(math.hypot(*cols[i]), 1)
        good = own < 6 and own <= min(angle(px, c) for c in cols) + 1e-9 and 0.25 < k < 1.1
        print(int(good), "piece %d at %d,%d in its colour (pixel %d %d %d, colour %s: %.1f degrees off, %.2f of its length)"
              % (i, x, y, *px, cols[i], own, k))
EOF
helper() { python3 "$tmp/helper.py" "$@"; }

# The sample pages: a 50 mm cube's shell in six box pieces, laid out on a
# plate (pieces page) and put together in six steps (solution page), in
# six hues, faces split more finely in some pieces than in others.
make_samples() {
	python3 - "$1" <<'EOF'
import colorsys, json, sys
out = sys.argv[1]
def box(lo, hi, sub):
    verts, tris, index = [], [], {}
    def vertex(p):
        if p not in index:
            index[p] = len(verts) // 3
            verts.extend(p)
        return index[p]
    for ax in range(3):
        u, w = (ax + 1) % 3, (ax + 2) % 3
        for side in (0, 1):
            for i in range(sub):
                for j in range(sub):
                    def corner(a, b):
                        p = [0, 0, 0]
                        p[ax] = (lo, hi)[side][ax]
                        p[u] = lo[u] + (hi[u] - lo[u]) * a / sub
                        p[w] = lo[w] + (hi[w] - lo[w]) * b / sub
                        return vertex(tuple(p))
                    a, b, c, d = corner(i, j), corner(i + 1, j), corner(i + 1, j + 1), corner(i, j + 1)
                    tris += [a, b, c, a, c, d] if side else [a, c, b, a, d, c]
    return verts, tris
def pieces(boxes):
    res = []
    for i, (lo, hi) in enumerate(boxes):
        v, t = box(lo, hi, 1 + i % 3)
        r, g, b = colorsys.hsv_to_rgb(i / len(boxes), 0.75, 0.9)
        res.append({"name": str(i + 1), "colour": [int(r * 255), int(g * 255), int(b * 255)],
                    "vertices": v, "triangles": t})
    return res
S, T = 50, 10
shell = [((0, 0, 0), (S, S, T)), ((0, 0, S - T), (S, S, S)), ((0, 0, T), (S, T, S - T)),
         ((0, S - T, T), (S, S, S - T)), ((0, T, T), (T, S - T, S - T)), ((S - T, T, T), (S, S - T, S - T))]
plate = []
for i, (lo, hi) in enumerate(shell):
    d = sorted(h - l for l, h in zip(lo, hi))
    x, y = (i % 3) * 60, (i // 3) * 60
    plate.append(((x, y, 0), (x + d[2], y + d[1], d[0])))
title = "cubegen: size 5, seed 42 <test> & \"quotes\""
json.dump({"page": "pieces", "title": title, "pieces": pieces(plate)}, open(out + "/pieces.json", "w"))
names = ["Bottom", "Top", "Front", "Back", "Left", "Right"]
froms = [[0, 0, -60], [0, 0, 60], [0, -60, 0], [0, 60, 0], [-60, 0, 0], [60, 0, 0]]
order = [0, 2, 4, 3, 5, 1]
steps = [{"text": "%d. %s: piece %d, number up.%s" % (k + 1, names[i], i + 1, " </script> <!--" if k == 2 else ""),
          "show": sorted(order[:k + 1]), "moving": [i], "from": froms[i]} for k, i in enumerate(order)]
json.dump({"page": "solution", "title": title, "pieces": pieces(shell), "steps": steps},
          open(out + "/solution.json", "w"))
EOF
}

# Pages are opened by tests/tools/browser.py, all in one browser: job
# OUT URL [OPTION...] adds a page to the list (OUT.dom, OUT.png, OUT.log
# and OUT.ms once the browser has run); browse runs the list.
: > "$tmp/jobs"
job() { (IFS=$'\t'; echo "$*") >> "$tmp/jobs"; }
browse() {
	CHROMIUM=$CHROMIUM python3 "$here/tools/browser.py" "$tmp/jobs" "$tmp/browser.log"
}

# test_page FILE FRAGMENT: one page with one fragment.
# console LOG...: what the pages logged to the console. Chromium's own
# notes on the GPU driver ("GL Driver Message (OpenGL, Performance, ...):
# GPU stall due to ReadPixels", which SwiftShader gives now and then on
# a busy machine when the viewer reads back a pixel) are the browser's,
# not the page's, and are left out.
console() {
	grep -h CONSOLE "$@" | grep -v 'GL Driver Message (OpenGL, Performance,'
}

run=0
# add_page FILE FRAGMENT: its job, numbered in the order of test_page.
add_page() {
	run=$((run + 1))
	job "$tmp/page$run" "file://$1$2"
}
tested=0
test_page() {
	local file=$1 frag=$2 name
	name="$(basename "$(dirname "$file")")/$(basename "$file")$frag"
	tested=$((tested + 1))
	local dom="$tmp/page$tested.dom" png="$tmp/page$tested.png"
	if [ ! -s "$dom" ]; then
		fail "$name: opened in the browser ($(grep -F "file://$file$frag:" "$tmp/browse.err" | head -1))"
		return
	fi
	local kind npieces want drawn pieces tris step ncentres steptext_ok stepui points
	if ! eval "$(helper facts "$file" "$frag" "$dom")"; then
		fail "$name: the page's data and the DOM readable"
		return
	fi
	check "$name: drawn (data-drawn=$drawn)" test "$drawn" = 1
	check "$name: pieces drawn (data-pieces=$pieces of $npieces)" \
		test "${pieces:-0}" -gt 0 -a "${pieces:-0}" -le "$npieces"
	check "$name: triangles drawn (data-triangles=$tris)" test "${tris:-0}" -gt 0
	check "$name: step $want (data-step=$step)" test "$step" = "$want"
	check "$name: a pixel per piece drawn (data-ids, data-centres)" test "$ncentres" = "$pieces"
	if [ "$kind" = pieces ]; then
		check "$name: every piece drawn" test "$pieces" = "$npieces"
		check "$name: no step controls" test "$stepui" = 0
		check "$name: holds no steps nor any step's text" helper noanswer "$file"
	else
		check "$name: #step-text shows step $want's text" test "$steptext_ok" = 1
		check "$name: step controls" test "$stepui" = 5
	fi
	local msgs
	msgs=$(console "$tmp/page$tested.log" | sort -u | head -3 | tr '\n' ' ')
	check "$name: nothing on the console${msgs:+: $msgs}" test -z "$msgs"
	# every reported pixel in its piece's colour on the screenshot
	if [ -z "$points" ]; then
		fail "$name: some piece reported visible (data-centres)"
		return
	fi
	if [ ! -s "$png" ]; then
		fail "$name: screenshot taken"
		return
	fi
	local rgb good what
	# shellcheck disable=SC2046
	if ! rgb=$("$PNGPICK" "$png" $(cut -d' ' -f2,3 <<< "$points")); then
		fail "$name: reported pixels inside the screenshot"
		return
	fi
	while read -r good what; do
		if [ "$good" = 1 ]; then ok "$name: $what"; else fail "$name: $what"; fi
	done < <(paste -d' ' <(echo "$points") <(echo "$rgb") | helper colours "$file")
}

# --- the tools ------------------------------------------------------------
have=1
if command -v "$CHROMIUM" > /dev/null; then ok "chromium found"; else fail "chromium found"; have=0; fi
if [ -n "$PNGPICK" ] && [ -x "$PNGPICK" ]; then ok "pngpick found ($PNGPICK)"; else fail "pngpick found (set PNGPICK)"; have=0; fi
if command -v python3 > /dev/null; then ok "python3 found"; else fail "python3 found"; have=0; fi

# --- the viewer's source --------------------------------------------------
size=$(cat "$web/page.html" "$web/viewer.css" "$web/viewer.js" | wc -c)
check "web/ source is $size bytes, at most 30 KB" test "$size" -le 30720
check "web/ source is ASCII" not env LC_ALL=C grep -q "[^ -~	]" \
	"$web/page.html" "$web/viewer.css" "$web/viewer.js"
for m in TITLE CSS DATA JS; do
	n=$(grep -o "<!--CUBEGEN-$m-->" "$web/page.html" | wc -l)
	want=1
	[ $m = TITLE ] && want=2   # in <title> and in <h1>
	check "page.html has <!--CUBEGEN-$m--> $want time(s)" test "$n" = $want
done
check "viewer.js and viewer.css hold nothing that would end their element" \
	not grep -qiE "</script|</style|<!--|<script" "$web/viewer.js" "$web/viewer.css"

[ $have = 1 ] || { echo "viewer: $passed passed, $failed failed"; exit 1; }

# --- the window -------------------------------------------------------------
# Every page is laid out at 800x600: a page that reports its size.
printf '%s\n' '<!DOCTYPE html><body><script>' \
	'document.body.setAttribute("data-size", innerWidth + "x" + innerHeight);' \
	'</script></body>' > "$tmp/probe.html"
job "$tmp/probe" "file://$tmp/probe.html" "until:document.body.hasAttribute('data-size')"

# --- the pages --------------------------------------------------------------
pages=()
if [ -n "${PAGES:-}" ]; then
	read -r -a pages <<< "$PAGES"
else
	# cubegen's own pages: a cube, a box, a block puzzle, print's pieces
	# of the Soma cube and of a colour puzzle (its triangles in their
	# colours), and render's answers to the Soma cube and to Pelikan's
	# burr (pieces part way through its slides)
	if [ -z "${CUBEGEN:-}" ] || [ ! -x "$CUBEGEN" ]; then
		fail "CUBEGEN is not set to an executable cubegen"
	else
		g=$tmp/gen
		"$CUBEGEN" generate --size 4 --seed 3 --out "$g/cube" > /dev/null &&
		"$CUBEGEN" generate --size 3x4x5 --seed 2 --wall 3 --out "$g/box" > /dev/null &&
		"$CUBEGEN" generate --kind blocks --seed 3 --out "$g/blocks" > /dev/null &&
		"$CUBEGEN" print "${DATA:-$here/data/classic}/soma.puz" --out "$g/soma" > /dev/null &&
		"$CUBEGEN" print "${DATA:-$here/data/classic}/colour-mix.puz" --out "$g/mix" > /dev/null &&
		"$CUBEGEN" render "${DATA:-$here/data/classic}/soma.puz" --out "$g/rsoma" > /dev/null &&
		"$CUBEGEN" render "$here/../examples/PelikanBurr.xmpuzzle" --out "$g/rpel" > /dev/null
		check "cubegen writes the pages (generate, generate --kind blocks, print, render)" \
			test -s "$g/rsoma/solution.html"
		check "print: a colour puzzle's page has its triangles' colours" \
			grep -q '"tricolours"' "$g/mix/pieces.html"
		pages+=("$g/cube/pieces.html" "$g/cube/solution.html" "$g/cube/solution.html#step=0"
		        "$g/cube/solution.html#step=2" "$g/cube/solution.html#step=5&explode=1"
		        "$g/box/pieces.html" "$g/box/solution.html#explode=0.5"
		        "$g/blocks/pieces.html" "$g/blocks/solution.html" "$g/blocks/solution.html#step=1"
		        "$g/soma/pieces.html" "$g/mix/pieces.html"
		        "$g/rsoma/solution.html" "$g/rsoma/solution.html#step=2"
		        "$g/rpel/solution.html#step=4" "$g/rpel/solution.html#step=60")
	fi
	mkdir -p "$tmp/made" "$tmp/bad"
	make_samples "$tmp"
	make_page "$web" "$tmp/pieces.json" "$tmp/made/pieces.html"
	make_page "$web" "$tmp/solution.json" "$tmp/made/solution.html"
	pages+=("$tmp/made/pieces.html" "$tmp/made/pieces.html#view=200,-30,300"
	       "$tmp/made/solution.html" "$tmp/made/solution.html#step=0"
	       "$tmp/made/solution.html#step=2" "$tmp/made/solution.html#step=5"
	       "$tmp/made/solution.html#explode=1"
	       "$tmp/made/solution.html#step=9&explode=x&view=1,2")
	# the harness catches a pieces page that gives the answer away
	python3 - "$tmp" <<'EOF'
import json, sys
t = sys.argv[1]
p, s = json.load(open(t + "/pieces.json")), json.load(open(t + "/solution.json"))
json.dump(dict(p, steps=[]), open(t + "/bad1.json", "w"))
p["pieces"][0]["name"] = s["steps"][1]["text"]
json.dump(p, open(t + "/bad2.json", "w"))
EOF
	cp "$tmp/made/solution.html" "$tmp/bad/solution.html"
	make_page "$web" "$tmp/bad1.json" "$tmp/bad/pieces1.html"
	make_page "$web" "$tmp/bad2.json" "$tmp/bad/pieces2.html"
	check "the harness catches a pieces page with \"steps\"" not helper noanswer "$tmp/bad/pieces1.html"
	check "the harness catches a pieces page with a step's text" not helper noanswer "$tmp/bad/pieces2.html"
	# and a page that logs to the console or throws once it has drawn
	python3 - "$tmp/made/solution.html" "$tmp/bad/noisy.html" <<'EOF'
import sys
src = open(sys.argv[1], encoding="utf-8").read()
i = src.rindex("</body>")
noise = ("<script>(function wait() { if (!document.body.hasAttribute('data-drawn'))"
         " return setTimeout(wait, 10); console.error('harness: logged');"
         " throw new Error('harness: thrown'); })();</script>\n")
open(sys.argv[2], "w", encoding="utf-8").write(src[:i] + noise + src[i:])
EOF
	job "$tmp/noisy" "file://$tmp/bad/noisy.html"
fi

# each page as a file and a fragment
files=() frags=()
for p in "${pages[@]}"; do
	files+=("$(cd "$(dirname "${p%%#*}")" 2> /dev/null && pwd)/$(basename "${p%%#*}")")
	frag=""
	[[ $p == *#* ]] && frag="#${p#*#}"
	frags+=("$frag")
done
timed=""  # the job of a generated cube's solution.html, for its time
for i in "${!files[@]}"; do
	[ -f "${files[$i]}" ] || continue
	add_page "${files[$i]}" "${frags[$i]}"
	[ "${files[$i]}${frags[$i]}" = "${g:-}/cube/solution.html" ] && timed=$tmp/page$run
done

# --- hands and colour scheme -----------------------------------------------
# A copy of a real page with a script that plays a mouse drag, a two-finger
# pinch and the reset button as pointer events on the canvas, and records
# the view the page keeps in its link after each (#view=YAW,PITCH,DIST).
# Then the light and the dark scheme: the background where nothing is
# drawn follows the system's setting.
if [ -z "${PAGES:-}" ] && [ -s "${g:-}/cube/solution.html" ]; then
	hands=$tmp/hands/solution.html
	mkdir -p "$tmp/hands"
	python3 - "$g/cube/solution.html" "$hands" <<'EOF'
import sys
src = open(sys.argv[1], encoding="utf-8").read()
play = """<script>
(function () {
  var c = document.getElementById('view'), b = document.body, r = c.getBoundingClientRect();
  function ev(type, id, x, y) {
    c.dispatchEvent(new PointerEvent(type, {pointerId: id, isPrimary: id !== 3, bubbles: true,
      pointerType: id === 1 ? 'mouse' : 'touch', clientX: r.left + x, clientY: r.top + y}));
  }
  function view() { var m = /view=([^&]*)/.exec(location.hash); return m ? m[1] : 'none'; }
  ev('pointerdown', 1, 300, 300); ev('pointermove', 1, 350, 300); ev('pointerup', 1, 350, 300);
  setTimeout(function () {
    b.setAttribute('data-test-drag', view());
    ev('pointerdown', 2, 300, 300); ev('pointerdown', 3, 400, 300);
    ev('pointermove', 3, 500, 300); ev('pointerup', 2, 300, 300); ev('pointerup', 3, 500, 300);
    setTimeout(function () {
      b.setAttribute('data-test-pinch', view());
      document.querySelector('[aria-label="reset view"]').click();
      b.setAttribute('data-test-reset', view());
    }, 1000);
  }, 1000);
})();
</script>
"""
i = src.rindex("</body>")
open(sys.argv[2], "w", encoding="utf-8").write(src[:i] + play + src[i:])
EOF
	job "$tmp/hands" "file://$hands" "until:document.body.hasAttribute('data-test-reset')"
	for scheme in light dark; do
		job "$tmp/$scheme" "file://$g/cube/pieces.html" $scheme
	done
fi

# --- the browser, once for every page ------------------------------------------
browse 2> "$tmp/browse.err"
rc=$?
check "the browser ran every page ($(head -c 300 "$tmp/browse.err"))" test "$rc" = 0 -a ! -s "$tmp/browse.err"
got=$(grep -o 'data-size="[0-9x]*"' "$tmp/probe.dom" 2> /dev/null | tr -dc '0-9x')
check "pages are laid out at 800x600 (got ${got:-nothing})" test "$got" = 800x600

if [ -z "${PAGES:-}" ]; then
	check "the harness catches a page that logs to the console" \
		grep -q 'CONSOLE error: harness: logged' "$tmp/noisy.log"
	check "the harness catches a page that throws" \
		grep -q 'CONSOLE exception: .*harness: thrown' "$tmp/noisy.log"
fi

for i in "${!files[@]}"; do
	if [ -f "${files[$i]}" ]; then
		test_page "${files[$i]}" "${frags[$i]}"
	else
		fail "${pages[$i]}: page exists"
	fi
done

if [ -z "${PAGES:-}" ] && [ -s "${g:-}/cube/solution.html" ]; then
	home_yaw=$(grep -o 'HOME_YAW = [0-9]*' "$web/viewer.js" | tr -dc 0-9)
	home_pitch=$(grep -o 'HOME_PITCH = [0-9]*' "$web/viewer.js" | tr -dc 0-9)
	eval "$(python3 - "$tmp/hands.dom" "$home_yaw" "$home_pitch" <<'EOF'
import re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
a = dict(re.findall(r'data-test-(\w+)="([^"]*)"', dom))
def v(k):
    try:
        return [float(x) for x in a.get(k, "").split(",")]
    except ValueError:
        return []
d, p = v("drag"), v("pinch")
yaw, pitch = float(sys.argv[2]), float(sys.argv[3])
# a drag of 50 pixels to the right turns the view 20 degrees (0.4 a pixel)
print("drag_ok=%d" % (len(d) == 3 and abs(d[0] - (yaw - 20) % 360) < 0.01 and abs(d[1] - pitch) < 0.01))
# two fingers from 100 to 200 pixels apart halve the camera's distance
print("pinch_ok=%d" % (len(d) == 3 and len(p) == 3 and p[:2] == d[:2] and abs(p[2] - d[2] / 2) <= 0.1))
print("reset_ok=%d" % (a.get("reset") == "none"))
print("hands_seen='%s'" % " ".join("%s=%s" % kv for kv in sorted(a.items())))
EOF
)"
	check "a drag turns the view, kept in the link ($hands_seen)" test "${drag_ok:-0}" = 1
	check "a two-finger pinch zooms ($hands_seen)" test "${pinch_ok:-0}" = 1
	check "reset view takes the view out of the link" test "${reset_ok:-0}" = 1
	msgs=$(console "$tmp/hands.log" | sort -u | head -3 | tr '\n' ' ')
	check "pointer events log nothing to the console${msgs:+: $msgs}" test -z "$msgs"

	for scheme in light dark; do
		want=ECEEF1
		[ $scheme = dark ] && want=1D1F23
		got=$("$PNGPICK" "$tmp/$scheme.png" 2 300 2> /dev/null | awk '{ printf "%02X%02X%02X", $1, $2, $3 }')
		check "the $scheme scheme's background (pixel 2,300: ${got:-none}, want $want)" test "$got" = "$want"
	done
fi

# How long a page takes to draw, reported (not a timed test): from its
# navigation until it reports its picture, in a browser already running.
if [ -n "$timed" ] && [ -s "$timed.ms" ]; then
	echo "info: a size-4 puzzle's solution.html draws in $(cat "$timed.ms") ms (from its navigation, headless Chromium already running)"
fi

echo "viewer: $passed passed, $failed failed"
[ "$failed" = 0 ]
