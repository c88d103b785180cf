/*
 * fuzz_args.c: libFuzzer target for the command-line parsers. The input is
 * split at NUL bytes into arguments; the first byte picks the command
 * (0xF0 and above: convert, else the byte mod 6).
 * Properties: no crash or undefined behaviour, and what a parser accepts
 * is within the documented ranges. The parsers' error lines go to
 * stderr; `make fuzz` runs with -close_fd_mask=2, which silences them but
 * keeps libFuzzer's own reports.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/args.h"
#include "gen/gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The promises of struct print_opts for clearance 'c'. */
static int print_ok(const struct print_opts *p, double c)
{
	return p->unit > 0 && p->unit <= 1000 && p->wall > 0 &&
	       p->wall <= p->unit && c >= 0 && c < p->wall / 2 &&
	       p->wall - c >= PRINT_MIN_FLOOR - 1e-9;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 4096)
		return 0;
	char *buf = malloc(size + 1);
	char *argv[66];
	int argc = 1;
	if (!buf)
		return 0;
	memcpy(buf, data + 1, size - 1);
	buf[size - 1] = '\0';
	argv[0] = "cmd";
	for (size_t i = 0; i < size - 1 && argc < 64; i += strlen(buf + i) + 1)
		argv[argc++] = buf + i;
	argv[argc] = NULL;
	switch (data[0] >= 0xF0 ? 6 : data[0] % 6) {
	case 6: {
		struct convert_args c;
		if (args_convert(argc, argv, &c) == ARGS_OK &&
		    (!c.in || !c.out || (c.max && !c.solutions)))
			abort();
		break;
	}
	case 0: {
		struct generate_args g;
		if (args_generate(argc, argv, &g) == ARGS_OK &&
		    (g.size[0] < GEN_MIN_SIZE || g.size[0] > GEN_MAX_SIZE ||
		     g.size[1] < GEN_MIN_SIZE || g.size[1] > GEN_MAX_SIZE ||
		     g.size[2] < GEN_MIN_SIZE || g.size[2] > GEN_MAX_SIZE ||
		     !print_ok(&g.print, g.print.clearance) || g.attempts < 1))
			abort();
		/* the same words as batch's: its seed range and attempts */
		struct batch_args b;
		if (args_batch(argc, argv, &b) == ARGS_OK &&
		    (b.size[0] < GEN_MIN_SIZE || b.size[0] > GEN_MAX_SIZE ||
		     b.first > b.last || b.last - b.first == UINT64_MAX ||
		     b.attempts < 1 || b.attempts > 1000000))
			abort();
		break;
	}
	case 4: {
		struct print_args pa;
		if (args_print(argc, argv, &pa) == ARGS_OK &&
		    (!pa.file || !print_ok(&pa.print, pa.print.clearance)))
			abort();
		break;
	}
	case 5: {
		struct coupon_args c;
		if (args_coupon(argc, argv, &c) == ARGS_OK) {
			if (c.count < 1 || c.count > COUPON_MAX)
				abort();
			for (size_t i = 0; i < c.count; i++)
				if (!print_ok(&c.print, c.clearance[i]))
					abort();
		}
		break;
	}
	case 1:
	case 2: {
		struct solve_args s;
		if (args_solve(argc, argv, data[0] % 6 == 2, &s) == ARGS_OK && !s.file)
			abort();
		break;
	}
	default: {
		struct render_args r;
		if (args_render(argc, argv, &r) == ARGS_OK && !r.file)
			abort();
		break;
	}
	}
	free(buf);
	return 0;
}
