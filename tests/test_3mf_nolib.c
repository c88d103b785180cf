/*
 * test_3mf_nolib.c: mesh_3mf() when libzip cannot be loaded.
 *
 * mesh/threemf.c opens libzip when it writes a package (dlopen(), by the
 * name the build found). Here it is compiled into the test with a name no
 * library has, so the opening fails as on a machine without libzip: both
 * calls return MESH_ENOLIB with their outputs untouched and nothing
 * allocated left behind, and mesh_strerror() says what is missing. (This
 * file's copy of threemf.c stands in for libmesh's: the linker takes an
 * archive's member only for symbols still undefined.)
 */
#undef CUBEGEN_LIBZIP /* (the Makefile's) */
#define CUBEGEN_LIBZIP "libcubegen-test-no-such-zip.so.0"
#include "mesh/threemf.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

static void test_3mf_without_libzip(void **state)
{
	(void)state;
	static const unsigned char cube[8] = {1, 1, 1, 1, 1, 1, 1, 1};
	struct mesh *m = NULL;
	assert_int_equal(mesh_from_cells(cube, 2, 2, 2, 10.0, 0.2, &m), MESH_OK);
	struct mesh_object obj = {.mesh = m, .name = "cube", .rgb = 0x336699};
	unsigned char mark, *buf = &mark;
	size_t len = 77;
	assert_int_equal(mesh_3mf(&obj, 1, "t", &buf, &len), MESH_ENOLIB);
	assert_ptr_equal(buf, &mark);
	assert_int_equal(len, 77);
	uint32_t *colours = calloc(m->ntriangles, sizeof *colours);
	assert_non_null(colours);
	const uint32_t *const each[1] = {colours};
	assert_int_equal(mesh_3mf_coloured(&obj, each, 1, "t", &buf, &len),
			 MESH_ENOLIB);
	assert_ptr_equal(buf, &mark);
	assert_int_equal(len, 77);
	assert_non_null(strstr(mesh_strerror(MESH_ENOLIB), "libzip"));
	free(colours);
	mesh_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_3mf_without_libzip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
