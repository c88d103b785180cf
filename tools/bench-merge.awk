# bench-merge.awk: the tables of several runs of two builds' bench (files
# named base.N and now.N, each one run's output) as one table side by
# side: per row the least and the greatest of its times over the runs of
# each build, and how many times as fast "now" is ("base" / "now", on the
# least of each). Called by tools/bench-compare.sh:
#   awk -v base=DESC -v now=DESC -f tools/bench-merge.awk base.1 now.1 ...
# Rows come in now's order, then those only base has; a row that only
# one build has is shown with "-" for the other; a figure that is not a
# time (a share, a count) is shown as the last run (the greatest N)
# printed it. The note is now's last, with base's beside it when it
# differs other than in figures of time (the nodes a search took, say).

function trim(s) {
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}

# The seconds a figure such as "12.5 ms" stands for, or -1.
function seconds(f,    n, u) {
	if (f !~ /^[0-9]+(\.[0-9]+)? (ns|µs|ms|s)$/)
		return -1
	n = f; sub(/ .*/, "", n)
	u = f; sub(/^[^ ]* /, "", u)
	if (u == "ns") return n / 1e9
	if (u == "µs") return n / 1e6
	if (u == "ms") return n / 1e3
	return n + 0
}

# A time in the units bench.c prints.
function show(t) {
	if (t < 1e-6) return sprintf("%.1f ns", t * 1e9)
	if (t < 1e-3) return sprintf("%.2f µs", t * 1e6)
	if (t < 1) return sprintf("%.2f ms", t * 1e3)
	return sprintf("%.2f s", t)
}

# A note without what depends on the run's speed: the speed-ups of the
# thread rows ("x1.87"), rates ("45564 unique puzzles/s") and times.
function steady(s) {
	gsub(/x[0-9]+\.[0-9]+/, "x?", s)
	gsub(/[0-9]+(\.[0-9]+)? [a-z ]*\/s/, "?/s", s)
	gsub(/[0-9]+(\.[0-9]+)? (ns|µs|ms|s)([ ,;)]|$)/, "? ", s)
	return s
}

# Least–greatest of one build's times of a row.
function spread(b, w) {
	if (!((b, w) in lo))
		return (b, w) in fig ? fig[b, w] : "-"
	if (runs[b, w] == 1 || show(lo[b, w]) == show(hi[b, w]))
		return show(lo[b, w])
	return show(lo[b, w]) " to " show(hi[b, w])
}

# s padded with spaces to n characters (awk counts bytes: "µ" and "×"
# are two).
function pad(s, n,    t) {
	t = s
	gsub(/µ|×/, "x", t)
	while (length(t) < n) {
		s = s " "
		t = t " "
	}
	return s
}

FNR == 1 {
	who = FILENAME
	sub(/.*\//, "", who)
	sub(/\..*/, "", who)
	if (who != "base" && who != "now") {
		printf "bench-merge: %s: not named base.N or now.N\n", FILENAME > "/dev/stderr"
		bad = 1
		exit 2
	}
	files[who]++
	k = FILENAME
	sub(/.*\./, "", k)
	k += 0
}

/^\| / {
	n = split($0, c, "|")
	if (n < 5)
		next
	w = trim(c[2]); f = trim(c[3]); note = trim(c[4])
	if (w == "what" || w ~ /^-+$/)
		next
	if (!((who, w) in has))
		order[who, ++rows[who]] = w
	has[who, w] = 1
	if (!((who, w) in last) || k >= last[who, w]) {
		last[who, w] = k
		fig[who, w] = f
		notes[who, w] = note
	}
	t = seconds(f)
	if (t < 0)
		next
	runs[who, w]++
	if (!((who, w) in lo) || t < lo[who, w]) lo[who, w] = t
	if (!((who, w) in hi) || t > hi[who, w]) hi[who, w] = t
}

END {
	if (bad)
		exit 2
	if (!files["base"] || !files["now"]) {
		print "bench-merge: need the runs of both builds (base.N and now.N)" > "/dev/stderr"
		exit 2
	}
	printf "base: %s; now: %s; %d and %d runs, in turn; each build's least and greatest time\n\n", \
	    base, now, files["base"], files["now"]
	printf "| %-50s | %-24s | %-24s | %-8s | %s |\n", "what", "base", "now", "speed-up", "note (now)"
	printf "|%s|%s|%s|%s|%s|\n", "----------------------------------------------------", \
	    "--------------------------", "--------------------------", "----------", "------------"
	# now's rows in now's order, then those only base has in base's
	n = 0
	for (i = 1; i <= rows["now"]; i++)
		list[++n] = order["now", i]
	for (i = 1; i <= rows["base"]; i++)
		if (!(("now", order["base", i]) in has))
			list[++n] = order["base", i]
	for (i = 1; i <= n; i++) {
		w = list[i]
		up = "-"
		if (("base", w) in lo && ("now", w) in lo && lo["now", w] > 0)
			up = sprintf("%.2f×", lo["base", w] / lo["now", w])
		note = ("now", w) in notes ? notes["now", w] : "(not in now)"
		if (("base", w) in notes && ("now", w) in notes &&
		    steady(notes["base", w]) != steady(notes["now", w]))
			note = note " (base: " notes["base", w] ")"
		printf "| %s | %s | %s | %s | %s |\n", pad(w, 50), pad(spread("base", w), 24), \
		    pad(spread("now", w), 24), pad(up, 8), note
	}
}
