/*
 * test_scad.c: OpenSCAD files of specs (mesh_write_scad_spec(),
 * mesh_write_scad_plate_spec()): walls, labels, plates.
 *
 * OpenSCAD itself is not run here (a second or more per file;
 * tests/print_check.sh renders files and compares them with the STLs).
 * Instead the data of each file are read back and the file's own
 * formulas, transcribed to C from lines whose exact text is checked, are
 * evaluated in double as OpenSCAD does: the label's strokes must be
 * mesh_label_cuts()' boxes bit for bit, the plate origins
 * mesh_build_plate()'s bit for bit, and the union of the file's boxes less
 * its strokes must have mesh_spec_volume() (an independent sum over the
 * cells), on random plates and polycubes with random wall layers, labels
 * and sizes, including sizes where a label has no room. Plus: without
 * walls and labels the old writers' files are the spec writers', a
 * parameter appears exactly when some piece uses it, errors write
 * nothing, write errors, and out of memory at every allocation (a malloc
 * that fails on demand, off under AddressSanitizer).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh/mesh.h"
#include "mesh/mesh_int.h"

#include "tests/failmalloc.h"
#include "tests/testrand.h"

/* ---- random pieces --------------------------------------------------------- */

/* A spec with its own storage. */
struct piece {
	struct mesh_spec s;
	unsigned char c[512];
	unsigned char wall[3][8];
	char label[MESH_LABEL_MAX + 1];
};

static void piece_fix(struct piece *p)
{
	p->s.cells = p->c;
	for (int a = 0; a < 3; a++)
		p->s.wall[a] = p->s.wall[a] ? p->wall[a] : NULL;
	p->s.label = p->label;
}

/* A flat nx x ny plate as a box's face: the centre full, each edge cell
 * there or not, a corner only next to an edge cell; the outer layers are
 * walls, and so is the one z layer. */
static void face(uint64_t *s, int nx, int ny, struct piece *p)
{
	memset(p, 0, sizeof *p);
	p->s.dims[0] = nx;
	p->s.dims[1] = ny;
	p->s.dims[2] = 1;
	for (int y = 0; y < ny; y++)
		for (int x = 0; x < nx; x++) {
			int bx = x == 0 || x == nx - 1, by = y == 0 || y == ny - 1;
			p->c[x + nx * y] = !bx && !by ? 1 : bx && by ? 0 : (unsigned char)rnd(s, 2);
		}
	for (int y = 0; y < ny; y += ny - 1)
		for (int x = 0; x < nx; x += nx - 1)
			if (p->c[(x == 0 ? 1 : nx - 2) + nx * y] || p->c[x + nx * (y == 0 ? 1 : ny - 2)])
				p->c[x + nx * y] = (unsigned char)rnd(s, 2);
	p->wall[0][0] = p->wall[0][nx - 1] = 1;
	p->wall[1][0] = p->wall[1][ny - 1] = 1;
	p->wall[2][0] = 1;
	for (int a = 0; a < 3; a++)
		p->s.wall[a] = p->wall[a];
	piece_fix(p);
}

/* A random 6-connected polycube of up to 14 cells in a box of 1..4 per
 * axis, each layer a wall with probability 1/3. */
static void polycube(uint64_t *s, struct piece *p)
{
	memset(p, 0, sizeof *p);
	int *n = p->s.dims;
	for (int a = 0; a < 3; a++) {
		n[a] = 1 + rnd(s, 4);
		for (int k = 0; k < n[a]; k++)
			p->wall[a][k] = rnd(s, 3) == 0;
		p->s.wall[a] = rnd(s, 4) ? p->wall[a] : NULL;
	}
	int vol = n[0] * n[1] * n[2], want = 1 + rnd(s, vol < 14 ? vol : 14);
	p->c[rnd(s, vol)] = 1;
	for (int have = 1; have < want;) {
		int x = rnd(s, n[0]), y = rnd(s, n[1]), z = rnd(s, n[2]);
		int i = x + n[0] * (y + n[1] * z);
		if (p->c[i])
			continue;
		int nb = (x > 0 && p->c[i - 1]) || (x + 1 < n[0] && p->c[i + 1]) ||
			 (y > 0 && p->c[i - n[0]]) || (y + 1 < n[1] && p->c[i + n[0]]) ||
			 (z > 0 && p->c[i - n[0] * n[1]]) ||
			 (z + 1 < n[2] && p->c[i + n[0] * n[1]]);
		if (nb) {
			p->c[i] = 1;
			have++;
		}
	}
	piece_fix(p);
}

static void random_label(uint64_t *s, char *label)
{
	int len = 1 + rnd(s, MESH_LABEL_MAX);
	for (int i = 0; i < len; i++)
		label[i] = (char)('0' + rnd(s, 10));
	label[len] = 0;
}

/* ---- writing and reading files ------------------------------------------- */

/* What 'fp' holds, NUL-terminated (caller frees); fp is closed. */
static char *slurp(FILE *fp)
{
	long n = ftell(fp);
	assert_true(n >= 0);
	rewind(fp);
	char *t = malloc((size_t)n + 1);
	assert_non_null(t);
	assert_int_equal(fread(t, 1, (size_t)n, fp), (size_t)n);
	t[n] = 0;
	fclose(fp);
	return t;
}

/* The file of one spec (count 0) or a plate; *rc the writer's status. */
static char *scad_of(const struct mesh_spec *s, size_t count,
		     const struct mesh_size *sz, double gap, int *rc)
{
	FILE *fp = tmpfile();
	assert_non_null(fp);
	*rc = count == 0 ? mesh_write_scad_spec(fp, s, sz, "t")
			 : mesh_write_scad_plate_spec(fp, s, count, sz, gap, "t");
	return slurp(fp);
}

/* The integers of the assignment that starts with 'key' (e.g.
 * "\npiece_walls = "), up to its ';', skipping // comments. Returns how
 * many, -1 if 'key' is not in the text. */
static int ints_of(const char *text, const char *key, int *out, int max)
{
	const char *p = strstr(text, key);
	if (!p)
		return -1;
	int n = 0;
	for (p += strlen(key); *p && *p != ';';) {
		if (p[0] == '/' && p[1] == '/') {
			p = strchr(p, '\n');
			assert_non_null(p);
		} else if ((*p >= '0' && *p <= '9') || (*p == '-' && p[1] >= '0' && p[1] <= '9')) {
			char *end;
			long v = strtol(p, &end, 10);
			assert_true(n < max);
			out[n++] = (int)v;
			p = end;
		} else {
			p++;
		}
	}
	return n;
}

/* A number the file assigns: "\nname = value;". */
static double value_of(const char *text, const char *name)
{
	char key[64];
	snprintf(key, sizeof key, "\n%s = ", name);
	const char *p = strstr(text, key);
	assert_non_null(p);
	return strtod(p + strlen(key), NULL);
}

/* One piece as the file has it. */
struct fpiece {
	int box[64][12];
	int nbox;
	int walls[3][8]; /* zeros when the file has no _walls */
	int has_label;
	int place[5];    /* x0, x1, y0, y1, z1 */
	int turned, w, ylo;
	int stroke[MESH_LABEL_STROKES][4];
	int nstroke;
	int notch[32][3]; /* its _notches (mesh.h), when the file has them */
	int nnotch;
};

/* Read piece 'name' (e.g. "piece" or "piece_3") with bounding box n. */
static void read_piece(const char *text, const char *name, const int n[3],
		       struct fpiece *f)
{
	char key[64];
	int v[64 * 12];
	memset(f, 0, sizeof *f);
	snprintf(key, sizeof key, "\n%s = [", name);
	int k = ints_of(text, key, v, 64 * 12);
	assert_true(k > 0 && k % 12 == 0);
	f->nbox = k / 12;
	memcpy(f->box, v, (size_t)k * sizeof *v);
	snprintf(key, sizeof key, "\n%s_walls = ", name);
	k = ints_of(text, key, v, 64);
	if (k >= 0) {
		assert_int_equal(k, n[0] + n[1] + n[2]);
		for (int a = 0, i = 0; a < 3; a++)
			for (int j = 0; j < n[a]; j++)
				f->walls[a][j] = v[i++];
	}
	snprintf(key, sizeof key, "\n%s_notches = ", name);
	k = ints_of(text, key, v, 32 * 3);
	if (k > 0) {
		assert_true(k % 3 == 0);
		f->nnotch = k / 3;
		memcpy(f->notch, v, (size_t)k * sizeof *v);
	}
	snprintf(key, sizeof key, "\n%s_label = ", name);
	k = ints_of(text, key, v, 64 * 12);
	if (k > 0) {
		assert_true(k >= 12 && (k - 8) % 4 == 0);
		f->has_label = 1;
		memcpy(f->place, v, sizeof f->place);
		f->turned = v[5];
		f->w = v[6];
		f->ylo = v[7];
		f->nstroke = (k - 8) / 4;
		memcpy(f->stroke, v + 8, (size_t)(k - 8) * sizeof *v);
	}
}

/* ---- the file's formulas, in C --------------------------------------------- */

/* cubegen_at(f, k, t) = nw * wall + (k - nw) * unit - t * (clearance / 2),
 * nw the wall flags among f[0 .. k-1]; without walls the file has
 * k * unit - t * (clearance / 2), the same double. */
static double at(const int *f, int k, int t, const struct mesh_size *sz)
{
	int nw = 0;
	for (int i = 0; i < k; i++)
		nw += f[i];
	return nw * sz->wall + (k - nw) * sz->unit - t * (sz->clearance / 2);
}

/* cubegen_piece(): box i from lo[i] to hi[i]. */
static void file_boxes(const struct fpiece *f, const struct mesh_size *sz,
		       double (*lo)[3], double (*hi)[3])
{
	for (int i = 0; i < f->nbox; i++) {
		const int *b = f->box[i];
		for (int a = 0; a < 3; a++) {
			lo[i][a] = at(f->walls[a], b[a], 1 - b[6 + 2 * a], sz);
			hi[i][a] = at(f->walls[a], b[a] + b[3 + a], 1 + b[7 + 2 * a], sz);
		}
	}
}

/* cubegen_part() and cubegen_label(): the strokes cut, or 0 of them. */
static int file_strokes(const char *text, const struct fpiece *f,
			const struct mesh_size *sz, struct mesh_cut *cut)
{
	if (!f->has_label)
		return 0;
	double depth = value_of(text, "label_depth");
	double margin = value_of(text, "label_margin");
	double least = value_of(text, "label_min");
	double r[4] = {at(f->walls[0], f->place[0], 1, sz), at(f->walls[0], f->place[1], 1, sz),
		       at(f->walls[1], f->place[2], 1, sz), at(f->walls[1], f->place[3], 1, sz)};
	double top = at(f->walls[2], f->place[4], 2, sz);
	int turned = f->turned, w = f->w, ylo = f->ylo;
	double m = sz->clearance / 2 + margin;
	double aw = r[1] - r[0] - 2 * m;
	double ah = r[3] - r[2] - 2 * m;
	double fh = 10 - ylo;
	double s = turned ? fmin(aw / fh, ah / w) : fmin(aw / w, ah / fh);
	double cx = (r[0] + r[1]) / 2;
	double cy = (r[2] + r[3]) / 2;
	double uc = w / 2.0;
	double vc = (ylo + 10) / 2.0;
	if (!(s * 10 >= least))
		return 0;
	for (int k = 0; k < f->nstroke; k++) {
		const int *t = f->stroke[k];
		struct mesh_cut *c = &cut[k];
		if (turned) {
			c->lo[0] = cx - (t[3] - vc) * s;
			c->lo[1] = cy + (t[0] - uc) * s;
			c->hi[0] = cx - (t[1] - vc) * s;
			c->hi[1] = cy + (t[2] - uc) * s;
		} else {
			c->lo[0] = cx + (t[0] - uc) * s;
			c->lo[1] = cy + (t[1] - vc) * s;
			c->hi[0] = cx + (t[2] - uc) * s;
			c->hi[1] = cy + (t[3] - vc) * s;
		}
		c->lo[2] = top - depth;
		c->hi[2] = top + 1;
	}
	return f->nstroke;
}

/* cubegen_notched(): the cube around each notched corner, cut when the
 * clearance is not 0, after the strokes in 'cut' (n of them). */
static int file_notches(const struct fpiece *f, const struct mesh_size *sz,
			struct mesh_cut *cut, int n)
{
	for (int i = 0; i < f->nnotch && sz->clearance > 0; i++, n++)
		for (int a = 0; a < 3; a++) {
			cut[n].lo[a] = at(f->walls[a], f->notch[i][a], 2, sz);
			cut[n].hi[a] = at(f->walls[a], f->notch[i][a], 0, sz);
		}
	return n;
}

static const char notch_lines[] =
	"    if (clearance > 0)\n"
	"      for (v = notches)\n"
	"        cubegen_box([for (a = [0 : 2]) cubegen_at(%sv[a], 2)],\n"
	"                    [for (a = [0 : 2]) cubegen_at(%sv[a], 0)]);\n";

/* The lines of the file the two functions above transcribe. */
static const char *const formula_lines[] = {
	"function cubegen_walls(f, k) = k == 0 ? 0 : f[k - 1] + cubegen_walls(f, k - 1);\n"
	"function cubegen_at(f, k, t) = let (nw = cubegen_walls(f, k))\n"
	"  nw * wall + (k - nw) * unit - t * (clearance / 2);\n",
	"    cubegen_box([for (a = [0 : 2]) cubegen_at(walls[a], b[a], 1 - b[6 + 2 * a])],\n"
	"                [for (a = [0 : 2]) cubegen_at(walls[a], b[a] + b[3 + a], 1 + b[7 + 2 * a])]);\n",
	"label_depth = 0.6;\nlabel_margin = 1;\nlabel_min = 2;\n",
	"  turned = label[1];\n"
	"  w = label[2];\n"
	"  ylo = label[3];\n"
	"  m = clearance / 2 + label_margin;\n"
	"  aw = r[1] - r[0] - 2 * m;\n"
	"  ah = r[3] - r[2] - 2 * m;\n"
	"  fh = 10 - ylo;\n"
	"  s = turned ? min(aw / fh, ah / w) : min(aw / w, ah / fh);\n"
	"  cx = (r[0] + r[1]) / 2;\n"
	"  cy = (r[2] + r[3]) / 2;\n"
	"  uc = w / 2;\n"
	"  vc = (ylo + 10) / 2;\n"
	"  if (s * 10 >= label_min)\n"
	"    for (t = label[4])\n"
	"      if (turned) // the text's u along +y, its v along -x\n"
	"        cubegen_box([cx - (t[3] - vc) * s, cy + (t[0] - uc) * s, top - label_depth],\n"
	"                    [cx - (t[1] - vc) * s, cy + (t[2] - uc) * s, top + 1]);\n"
	"      else\n"
	"        cubegen_box([cx + (t[0] - uc) * s, cy + (t[1] - vc) * s, top - label_depth],\n"
	"                    [cx + (t[2] - uc) * s, cy + (t[3] - vc) * s, top + 1]);\n",
	"  if (labels && len(label) > 0)\n"
	"    difference() {\n"
	"      cubegen_piece(boxes, walls);\n"
	"      cubegen_label([cubegen_at(walls[0], label[0][0], 1), cubegen_at(walls[0], label[0][1], 1),\n"
	"                     cubegen_at(walls[1], label[0][2], 1), cubegen_at(walls[1], label[0][3], 1)],\n"
	"                    cubegen_at(walls[2], label[0][4], 2), label);\n",
};

/* Volume of (union of the boxes) less (union of the cuts), on the grid of
 * all their sides: an elementary box counts when its centre is in a box
 * and in no cut. */
static double union_volume(double (*lo)[3], double (*hi)[3], int nb,
			   const struct mesh_cut *cut, int nc)
{
	double *line[3];
	int nl[3];
	for (int a = 0; a < 3; a++) {
		line[a] = malloc((size_t)(2 * (nb + nc)) * sizeof *line[a]);
		assert_non_null(line[a]);
		nl[a] = 0;
		for (int i = 0; i < nb; i++) {
			line[a][nl[a]++] = lo[i][a];
			line[a][nl[a]++] = hi[i][a];
		}
		for (int i = 0; i < nc; i++) {
			line[a][nl[a]++] = cut[i].lo[a];
			line[a][nl[a]++] = cut[i].hi[a];
		}
		for (int i = 1; i < nl[a]; i++) /* insertion sort, few lines */
			for (int j = i; j > 0 && line[a][j] < line[a][j - 1]; j--) {
				double t = line[a][j];
				line[a][j] = line[a][j - 1];
				line[a][j - 1] = t;
			}
	}
	double v = 0;
	for (int k = 0; k + 1 < nl[2]; k++)
		for (int j = 0; j + 1 < nl[1]; j++)
			for (int i = 0; i + 1 < nl[0]; i++) {
				double d[3] = {line[0][i + 1] - line[0][i], line[1][j + 1] - line[1][j],
					       line[2][k + 1] - line[2][k]};
				if (d[0] == 0 || d[1] == 0 || d[2] == 0)
					continue;
				double m[3] = {line[0][i] + d[0] / 2, line[1][j] + d[1] / 2,
					       line[2][k] + d[2] / 2};
				int in = 0;
				for (int q = 0; q < nb && !in; q++)
					in = lo[q][0] < m[0] && m[0] < hi[q][0] && lo[q][1] < m[1] &&
					     m[1] < hi[q][1] && lo[q][2] < m[2] && m[2] < hi[q][2];
				for (int q = 0; q < nc && in; q++)
					in = !(cut[q].lo[0] < m[0] && m[0] < cut[q].hi[0] &&
					       cut[q].lo[1] < m[1] && m[1] < cut[q].hi[1] &&
					       cut[q].lo[2] < m[2] && m[2] < cut[q].hi[2]);
				if (in)
					v += d[0] * d[1] * d[2];
			}
	for (int a = 0; a < 3; a++)
		free(line[a]);
	return v;
}

/* The solid of piece 'name' in 'text' at size 'sz' (labels on) against
 * the library: the strokes are mesh_label_cuts()' to the bit, the volume
 * mesh_spec_volume()'s. Returns the number of strokes cut. */
static int check_piece(const char *text, const char *name,
		       const struct mesh_spec *s, const struct mesh_size *sz)
{
	struct mesh_piece p;
	assert_int_equal(mesh_piece_init_spec(&p, s, sz), MESH_OK);
	struct fpiece f;
	read_piece(text, name, p.n, &f);
	for (int a = 0; a < 3; a++)
		for (int k = 0; k < p.n[a]; k++)
			assert_int_equal(f.walls[a][k], mesh_piece_is_wall(&p, a, k));
	struct mesh_cut want[MESH_LABEL_STROKES], got[MESH_LABEL_STROKES + 32];
	size_t nwant;
	double height, area;
	assert_int_equal(mesh_label_cuts(&p, sz, want, &nwant, &height, &area), MESH_OK);
	int ngot = file_strokes(text, &f, sz, got);
	assert_int_equal(ngot, (int)nwant);
	for (int k = 0; k < ngot; k++)
		for (int a = 0; a < 3; a++) {
			assert_true(got[k].lo[a] == want[k].lo[a]);
			assert_true(got[k].hi[a] == want[k].hi[a]);
		}
	double (*lo)[3] = malloc((size_t)f.nbox * sizeof *lo);
	double (*hi)[3] = malloc((size_t)f.nbox * sizeof *hi);
	assert_true(lo && hi);
	file_boxes(&f, sz, lo, hi);
	/* the notches: the file's are the library's, and cut the same */
	struct mesh_piece mp;
	assert_int_equal(mesh_piece_init_spec(&mp, s, sz), MESH_OK);
	assert_int_equal(f.nnotch, (int)mesh_piece_notches(&mp));
	if (f.nnotch) {
		char lines[400];
		const char *w = strstr(text, "_walls = ") ? "walls[a], " : "";
		snprintf(lines, sizeof lines, notch_lines, w, w);
		assert_non_null(strstr(text, lines));
	}
	int ncut = file_notches(&f, sz, got, ngot);
	double v = union_volume(lo, hi, f.nbox, got, ncut), e = mesh_spec_volume(s, sz);
	assert_true(e > 0 && fabs(v - e) <= 1e-9 * e);
	free(lo);
	free(hi);
	return ngot;
}

/* ---- tests ------------------------------------------------------------------------ */

static const struct mesh_size sizes[] = {
	{10, 3, 0.2}, {10, 10, 0.2}, {8, 3, 0.3}, {8, 10, 0}, {5, 5, 0.2},
	{4, 2, 0.1}, {20, 1.5, 0.5}, {6.5, 7.25, 0.35},
};
#define NSIZES (sizeof sizes / sizeof sizes[0])

/* Without walls and labels the old writers write the spec writers' files,
 * and so do specs whose flags are all 0 or lie outside the cells'
 * bounding box, and an empty label. */
static void test_scad_old_writers_are_the_spec_writers(void **state)
{
	(void)state;
	uint64_t seed = 1;
	for (int i = 0; i < 50; i++) {
		struct piece p[6];
		const unsigned char *cells[6];
		int dims[6][3];
		for (int k = 0; k < 6; k++) {
			face(&seed, 5 + k % 2, 5, &p[k]);
			cells[k] = p[k].c;
			memcpy(dims[k], p[k].s.dims, sizeof dims[k]);
		}
		double unit = 6 + rnd(&seed, 10), c = rnd(&seed, 4) * 0.1;
		struct mesh_size sz = {unit, unit, c};
		FILE *fp = tmpfile();
		assert_non_null(fp);
		assert_int_equal(mesh_write_scad(fp, cells[0], dims[0][0], dims[0][1], dims[0][2],
						 unit, c, "t"), MESH_OK);
		char *old = slurp(fp);
		fp = tmpfile();
		assert_non_null(fp);
		assert_int_equal(mesh_write_scad_plate(fp, cells, (const int (*)[3])dims, 6, unit,
						       c, 5, "t"), MESH_OK);
		char *oldp = slurp(fp);
		assert_null(strstr(old, "wall"));
		assert_null(strstr(old, "label"));
		assert_null(strstr(oldp, "wall"));
		assert_null(strstr(oldp, "label"));
		struct mesh_spec s[6];
		for (int variant = 0; variant < 3; variant++) {
			static const unsigned char zero[8];
			/* a border of empty cells around piece 0, walls on it */
			static unsigned char big[7 * 7];
			static const unsigned char edge[7] = {1, 0, 0, 0, 0, 0, 1};
			for (int k = 0; k < 6; k++) {
				s[k] = p[k].s;
				s[k].label = variant == 1 ? "" : NULL;
				for (int a = 0; a < 3; a++)
					s[k].wall[a] = variant == 0 ? NULL : zero;
			}
			if (variant == 2 && dims[0][0] == 5) {
				memset(big, 0, sizeof big);
				for (int y = 0; y < 5; y++)
					memcpy(big + 7 * (y + 1) + 1, p[0].c + 5 * y, 5);
				s[0] = (struct mesh_spec){big, {7, 7, 1}, {edge, edge, NULL}, NULL};
			}
			int rc;
			char *t = scad_of(s, 0, &sz, 0, &rc);
			assert_int_equal(rc, MESH_OK);
			assert_string_equal(t, old);
			free(t);
			t = scad_of(s, 6, &sz, 5, &rc);
			assert_int_equal(rc, MESH_OK);
			assert_string_equal(t, oldp);
			free(t);
		}
		free(old);
		free(oldp);
	}
}

/* wall appears when a layer of a piece's bounding box is a wall, labels
 * when a piece has a label, gap for plates; all in the Customizer's
 * sections before [Hidden], each with a range or a checkbox. */
static void test_scad_parameters_only_when_used(void **state)
{
	(void)state;
	uint64_t seed = 2;
	struct piece p;
	face(&seed, 5, 5, &p);
	struct mesh_size sz = {10, 3, 0.2};
	int rc;
	for (int walls = 0; walls < 2; walls++)
		for (int labels = 0; labels < 2; labels++) {
			struct mesh_spec s = p.s;
			if (!walls)
				s.wall[0] = s.wall[1] = s.wall[2] = NULL;
			s.label = labels ? "12" : NULL;
			char *t = scad_of(&s, 0, &sz, 0, &rc);
			assert_int_equal(rc, MESH_OK);
			const char *hidden = strstr(t, "\n/* [Hidden] */\n");
			assert_non_null(hidden);
			const char *u = strstr(t, "\nunit = 10; // [2:0.5:50]\n");
			const char *c = strstr(t, "\nclearance = 0.2; // [0:0.05:2]\n");
			const char *w = strstr(t, "\nwall = 3; // [1:0.5:50]\n");
			const char *l = strstr(t, "\n/* [Labels] */\n// Engrave each piece's number "
						  "in its top face, 0.6 mm deep\nlabels = true;\n");
			assert_true(u && c && u < c && c < hidden);
			assert_true(walls ? w && u < w && w < c : !w && !strstr(t, "wall"));
			assert_true(labels ? l && c < l && l < hidden : !l && !strstr(t, "label"));
			assert_null(strstr(t, "\ngap = "));
			static const char *const names[4] = {
				"unit or clearance", "unit, wall or clearance",
				"unit, clearance or labels", "unit, wall, clearance or labels"};
			char line[128];
			snprintf(line, sizeof line, "\n// %s (Window > Customizer), render (F6), "
				 "export STL.\n", names[walls + 2 * labels]);
			assert_non_null(strstr(t, line));
			/* the checks of struct mesh_size and the label's depth */
			assert_non_null(strstr(t, "\nassert(unit > 0, \"unit must be positive\");\n"));
			assert_non_null(strstr(t, "\nassert(clearance >= 0 && clearance < unit / 2, "));
			assert_true(!strstr(t, "\nassert(clearance < wall / 2, ") == !walls);
			assert_true(!strstr(t, "\nassert(wall > 0, ") == !walls);
			/* the top layer is a wall when walls are on */
			assert_true(!strstr(t, "\nassert(!labels || wall - clearance > label_depth, ") ==
				    !(labels && walls));
			assert_true(!strstr(t, "\nassert(!labels || unit - clearance > label_depth, ") ==
				    !(labels && !walls));
			for (size_t k = 0; walls && labels && k < sizeof formula_lines / sizeof *formula_lines; k++)
				assert_non_null(strstr(t, formula_lines[k]));
			free(t);
		}
	/* a plate: gap in [Size], pieces with and without labels */
	struct piece q[3];
	for (int i = 0; i < 3; i++)
		face(&seed, 4, 6, &q[i]);
	struct mesh_spec s[3] = {q[0].s, q[1].s, q[2].s};
	s[0].label = NULL;
	s[1].label = "7";
	s[2].label = "";
	char *t = scad_of(s, 3, &sz, 2.5, &rc);
	assert_int_equal(rc, MESH_OK);
	const char *g = strstr(t, "\ngap = 2.5; // [0.5:0.5:50]\n");
	assert_true(g && g < strstr(t, "/* [Labels] */"));
	assert_non_null(strstr(t, "\npiece_1_label = [];\n"));
	assert_non_null(strstr(t, "\npiece_2_label = [["));
	assert_non_null(strstr(t, "\npiece_3_label = [];\n"));
	assert_non_null(strstr(t, "\npieces = [piece_1, piece_2, piece_3];\n"
				  "pieces_walls = [piece_1_walls, piece_2_walls, piece_3_walls];\n"
				  "pieces_label = [piece_1_label, piece_2_label, piece_3_label];\n"));
	assert_non_null(strstr(t, "  translate([place[i][4] * wall + place[i][2] * unit + place[i][0] * (gap - clearance),\n"
				  "             place[i][5] * wall + place[i][3] * unit + place[i][1] * (gap - clearance), 0])\n"
				  "    cubegen_part(pieces[i], pieces_walls[i], pieces_label[i]);\n"));
	free(t);
	/* odd sizes keep their digits and widen the ranges */
	struct mesh_size odd = {77.25, 0.75, 0.3};
	t = scad_of(&p.s, 0, &odd, 0, &rc);
	assert_int_equal(rc, MESH_OK);
	assert_non_null(strstr(t, "\nunit = 77.25; // [2:0.5:77.25]\n"));
	assert_non_null(strstr(t, "\nwall = 0.75; // [0.75:0.5:50]\n"));
	free(t);
}

/* The walls are the flags of the bounding box's layers, whatever the
 * flags of empty layers around it; the label's data are
 * mesh_label_place()'s and mesh_label_strokes()'. */
static void test_scad_data(void **state)
{
	(void)state;
	/* an L of 3 cells in a 4 x 4 x 2 array, at x 1..2, y 2..3, z 1 */
	unsigned char c[32] = {0};
	c[1 + 4 * 2 + 16] = c[2 + 4 * 2 + 16] = c[1 + 4 * 3 + 16] = 1;
	static const unsigned char wx[4] = {1, 1, 0, 1}, wy[4] = {0, 0, 1, 0},
				   wz[2] = {1, 0};
	struct mesh_spec s = {c, {4, 4, 2}, {wx, wy, wz}, "69"};
	struct mesh_size sz = {10, 4, 0.2};
	int rc;
	char *t = scad_of(&s, 0, &sz, 0, &rc);
	assert_int_equal(rc, MESH_OK);
	assert_non_null(strstr(t, "\npiece_walls = [[1, 0], [1, 0], [0]];\n"));
	struct mesh_piece p;
	assert_int_equal(mesh_piece_init_spec(&p, &s, &sz), MESH_OK);
	struct mesh_label_place lp;
	assert_int_equal(mesh_label_place(&p, &lp), MESH_OK);
	assert_true(lp.ok);
	int stroke[MESH_LABEL_STROKES][4], w, ylo;
	int n = mesh_label_strokes("69", stroke, &w, &ylo);
	struct fpiece f;
	read_piece(t, "piece", p.n, &f);
	assert_true(f.has_label);
	assert_int_equal(f.place[0], lp.x0);
	assert_int_equal(f.place[1], lp.x1);
	assert_int_equal(f.place[2], lp.y0);
	assert_int_equal(f.place[3], lp.y1);
	assert_int_equal(f.place[4], p.n[2]);
	assert_int_equal(f.turned, lp.turned);
	assert_int_equal(f.w, w);
	assert_int_equal(f.ylo, ylo);
	assert_int_equal(f.nstroke, n);
	assert_memory_equal(f.stroke, stroke, (size_t)n * sizeof *stroke);
	/* one digit to a line, the underline alone, the text in a comment */
	assert_non_null(strstr(t, "\npiece_label = [[0, 2, 0, 1, 1], 0, 15, -4, [ // \"69\"\n"
				  "  [0, 8, 6, 10], [4, 0, 6, 6], [0, 0, 6, 2], [0, 0, 2, 6], [0, 4, 2, 10], [0, 4, 6, 6],\n"
				  "  [9, 8, 15, 10], [13, 4, 15, 10], [13, 0, 15, 6], [9, 0, 15, 2], [9, 4, 11, 10], [9, 4, 15, 6],\n"
				  "  [0, -4, 15, -2]\n]];\n"));
	assert_non_null(strstr(t, "\ncubegen_part(piece, piece_walls, piece_label);\n"));
	free(t);
}

/* On random plates and polycubes with random walls, labels and sizes,
 * the file's formulas give mesh_label_cuts()' strokes to the bit and
 * mesh_spec_volume(); some sizes leave the label off (no room), which the
 * file must do too. */
static void test_scad_solid_is_the_spec(void **state)
{
	(void)state;
	uint64_t seed = 3;
	int with = 0, without = 0, turned = 0;
	for (int i = 0; i < 400; i++) {
		struct piece p;
		if (i % 2)
			face(&seed, 4 + rnd(&seed, 3), 4 + rnd(&seed, 3), &p);
		else
			polycube(&seed, &p);
		random_label(&seed, p.label);
		const struct mesh_size *sz = &sizes[rnd(&seed, NSIZES)];
		int rc;
		char *t = scad_of(&p.s, 0, sz, 0, &rc);
		if (rc != MESH_OK) { /* not a manifold, or no room for the depth */
			struct mesh *m;
			assert_int_equal(mesh_build(&p.s, sz, &m), rc);
			assert_true(t[0] == 0);
			free(t);
			continue;
		}
		/* the file is parametric: every other size too */
		for (size_t k = 0; k < NSIZES; k++) {
			struct mesh_piece mp;
			if (mesh_piece_init_spec(&mp, &p.s, &sizes[k]) != MESH_OK)
				continue;
			int n = check_piece(t, "piece", &p.s, &sizes[k]);
			with += n > 0;
			without += n == 0;
			turned += n > 0 && strstr(t, "], 1, ") != NULL;
		}
		free(t);
	}
	assert_true(with > 300 && without > 30 && turned > 30);
}

/* A plate: each piece as on its own, and the file's origins are
 * mesh_build_plate()'s, bit for bit. */
static void test_scad_plate_is_the_build_plate(void **state)
{
	(void)state;
	uint64_t seed = 4;
	for (int i = 0; i < 30; i++) {
		struct piece p[7];
		struct mesh_spec s[7];
		size_t count = 1 + (size_t)rnd(&seed, 7);
		for (size_t k = 0; k < count; k++) {
			if (rnd(&seed, 3))
				face(&seed, 4 + rnd(&seed, 3), 4 + rnd(&seed, 3), &p[k]);
			else
				polycube(&seed, &p[k]);
			if (rnd(&seed, 4))
				random_label(&seed, p[k].label);
			s[k] = p[k].s;
		}
		const struct mesh_size *sz = &sizes[rnd(&seed, 3)];
		double gap = 1 + rnd(&seed, 8);
		int rc;
		char *t = scad_of(s, count, sz, gap, &rc);
		struct mesh *m;
		double origin[7][3];
		int brc = mesh_build_plate(s, count, sz, gap, &m, origin);
		assert_int_equal(rc, brc);
		if (rc != MESH_OK) {
			assert_true(t[0] == 0);
			free(t);
			continue;
		}
		mesh_free(m);
		int place[7 * 6];
		int walls = strstr(t, "\nwall = ") != NULL;
		int nv = ints_of(t, "\nplace = [", place, 7 * 6);
		assert_int_equal(nv, (int)count * (walls ? 6 : 4));
		for (size_t k = 0; k < count; k++) {
			const int *q = place + k * (walls ? 6 : 4);
			double x = (walls ? q[4] * sz->wall : 0) + q[2] * sz->unit + q[0] * (gap - sz->clearance);
			double y = (walls ? q[5] * sz->wall : 0) + q[3] * sz->unit + q[1] * (gap - sz->clearance);
			assert_true(x == origin[k][0] && y == origin[k][1] && origin[k][2] == 0);
			char name[32];
			snprintf(name, sizeof name, "piece_%zu", k + 1);
			check_piece(t, name, &s[k], sz);
		}
		free(t);
	}
}

/* Bad arguments: the errors of mesh_build(), and nothing written. */
static void test_scad_errors_write_nothing(void **state)
{
	(void)state;
	uint64_t seed = 5;
	struct piece p;
	face(&seed, 5, 5, &p);
	struct mesh_spec lab = p.s;
	lab.label = "3";
	/* a full 2 x 2 layer with two diagonal cells on top (mesh.h) */
	static const unsigned char diag[8] = {1, 1, 1, 1, 1, 0, 0, 1};
	static const unsigned char two[3] = {1, 0, 1};
	static const unsigned char one[1] = {1}, flag[1] = {1};
	struct {
		struct mesh_spec s;
		struct mesh_size sz;
		int rc;
	} bad[] = {
		{p.s, {10, 0.4, 0.2}, MESH_EINVAL},    /* clearance >= wall/2 */
		{p.s, {10, 0, 0.2}, MESH_EINVAL},
		{p.s, {10, NAN, 0.2}, MESH_EINVAL},
		{p.s, {0, 3, 0.2}, MESH_EINVAL},
		{p.s, {10, 3, -0.1}, MESH_EINVAL},
		{lab, {10, 0.79, 0.2}, MESH_EINVAL},   /* wall - clearance <= 0.6 */
		{{one, {1, 1, 1}, {NULL}, "1"}, {0.7, 3, 0.2}, MESH_EINVAL},
		{{one, {1, 1, 1}, {NULL}, "1a"}, {10, 3, 0.2}, MESH_EINVAL},
		{{one, {1, 1, 1}, {NULL}, "1234567"}, {10, 3, 0.2}, MESH_EINVAL},
		{{one, {1, 1, 1}, {NULL}, "-1"}, {10, 3, 0.2}, MESH_EINVAL},
		{{one, {0, 1, 1}, {NULL}, NULL}, {10, 3, 0.2}, MESH_EINVAL},
		{{two, {3, 1, 1}, {NULL}, NULL}, {10, 3, 0.2}, MESH_EDISCONNECTED},
		{{diag, {2, 2, 2}, {NULL}, NULL}, {10, 3, 0}, MESH_ENONMANIFOLD},
	};
	/* walls that are not used do not count */
	struct mesh_spec ok[] = {
		{one, {1, 1, 1}, {NULL, NULL, NULL}, NULL},
		{one, {1, 1, 1}, {flag, flag, flag}, "5"},
	};
	struct mesh_size thin = {10, 0.1, 0.2};
	int rc;
	char *t = scad_of(&ok[0], 0, &thin, 0, &rc);
	assert_int_equal(rc, MESH_OK);
	free(t);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct mesh *m;
		assert_int_equal(mesh_build(&bad[i].s, &bad[i].sz, &m), bad[i].rc);
		t = scad_of(&bad[i].s, 0, &bad[i].sz, 0, &rc);
		assert_int_equal(rc, bad[i].rc);
		assert_string_equal(t, "");
		free(t);
		/* a plate with the bad piece last */
		struct mesh_spec two_s[2] = {ok[1], bad[i].s};
		t = scad_of(two_s, 2, &bad[i].sz, 5, &rc);
		assert_true(rc != MESH_OK);
		assert_string_equal(t, "");
		free(t);
	}
	struct mesh_size sz = {10, 3, 0.2};
	static const double gaps[] = {0, -1, NAN, INFINITY};
	for (size_t i = 0; i < sizeof gaps / sizeof *gaps; i++) {
		t = scad_of(ok, 2, &sz, gaps[i], &rc);
		assert_int_equal(rc, MESH_EINVAL);
		assert_string_equal(t, "");
		free(t);
	}
	FILE *fp = tmpfile();
	assert_non_null(fp);
	assert_int_equal(mesh_write_scad_plate_spec(fp, ok, 0, &sz, 5, "t"), MESH_EINVAL);
	t = slurp(fp);
	assert_string_equal(t, "");
	free(t);
}

/* A full disk is MESH_EIO, buffered or not. */
static void test_scad_write_error_is_eio(void **state)
{
	(void)state;
	static const unsigned char one[1] = {1}, flag[1] = {1};
	struct mesh_spec s = {one, {1, 1, 1}, {flag, flag, flag}, "8"};
	struct mesh_size sz = {10, 3, 0.2};
	for (int buffered = 0; buffered < 2; buffered++)
		for (int plate = 0; plate < 2; plate++) {
			FILE *fp = fopen("/dev/full", "w");
			assert_non_null(fp);
			if (!buffered)
				assert_int_equal(setvbuf(fp, NULL, _IONBF, 0), 0);
			int rc = plate ? mesh_write_scad_plate_spec(fp, &s, 1, &sz, 5, "t")
				       : mesh_write_scad_spec(fp, &s, &sz, "t");
			assert_int_equal(rc, MESH_EIO);
			fclose(fp); /* fails too; nothing to check */
		}
}

/* Every allocation failing in turn: MESH_ENOMEM and nothing written, until
 * the file is written whole. */
static void test_scad_out_of_memory(void **state)
{
	(void)state;
#ifdef HAVE_ASAN
	skip();
#else
	uint64_t seed = 6;
	struct piece p[6];
	struct mesh_spec s[6];
	for (int k = 0; k < 6; k++) {
		face(&seed, 5, 5, &p[k]);
		snprintf(p[k].label, sizeof p[k].label, "%d", k + 1);
		s[k] = p[k].s;
	}
	struct mesh_size sz = {10, 3, 0.2};
	for (int plate = 0; plate < 2; plate++) {
		FILE *fp = tmpfile();
		assert_non_null(fp);
		assert_true(fprintf(fp, "// stdio's buffer is allocated now\n") > 0);
		long start = ftell(fp);
		for (long k = 0;; k++) {
			fail_after = k;
			int rc = plate ? mesh_write_scad_plate_spec(fp, s, 6, &sz, 5, "t")
				       : mesh_write_scad_spec(fp, s, &sz, "t");
			fail_after = -1;
			if (rc == MESH_OK)
				break;
			assert_int_equal(rc, MESH_ENOMEM);
			assert_int_equal(ftell(fp), start);
			assert_true(k < 10000);
		}
		assert_true(ftell(fp) > start);
		fclose(fp);
	}
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scad_old_writers_are_the_spec_writers),
		cmocka_unit_test(test_scad_parameters_only_when_used),
		cmocka_unit_test(test_scad_data),
		cmocka_unit_test(test_scad_solid_is_the_spec),
		cmocka_unit_test(test_scad_plate_is_the_build_plate),
		cmocka_unit_test(test_scad_errors_write_nothing),
		cmocka_unit_test(test_scad_write_error_is_eio),
		cmocka_unit_test(test_scad_out_of_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
