/* Options getters against the PETSc options database: values given, defaults
 * taken from the registered table, bad values rejected with MOREAU_ERR_INPUT
 * and a message naming the option, <i> families, closest-name suggestions and
 * the check for options nothing has read. */
#include <check.h>
#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "moreau/app.h"
#include "moreau/options.h"

static const moreau_option_spec test_options[] = {
    {"-tst_real", "<real>", "2.5", "a real"},
    {"-tst_int", "<int>", "-7", "an integer"},
    {"-tst_flag", "<bool>", "true", "a boolean"},
    {"-tst_text", "<string>", "abc", "a string"},
    {"-tst_list", "<reals>", "1,-2.5,4e3", "a list of reals"},
    {"-tst_none", "<reals>", "", "a list with no default"},
    {"-tst_kind", "<alpha|beta|gamma>", "beta", "a choice"},
    {"-tst_fam<i>_mode", "<string>", "idle", "member i of a numbered family"},
    {NULL, NULL, NULL, NULL}};

static const char *const kinds[] = {"alpha", "beta", "gamma", NULL};

static void set_options(const char *text)
{
  ck_assert_int_eq(PetscOptionsClear(NULL), 0);
  ck_assert_int_eq(PetscOptionsInsertString(NULL, text), 0);
}

static void set_one(const char *name, const char *value)
{
  ck_assert_int_eq(PetscOptionsClear(NULL), 0);
  ck_assert_int_eq(PetscOptionsSetValue(NULL, name, value), 0);
}

/* The call failed as bad input, and its message names the option and holds
 * the offending text (when one is given). */
static void expect_input_error(moreau_err err, const char *option, const char *text)
{
  const char *msg = moreau_error_message();
  ck_assert_int_eq(err, MOREAU_ERR_INPUT);
  ck_assert_msg(strstr(msg, option), "message '%s' does not name %s", msg, option);
  if (text) ck_assert_msg(strstr(msg, text), "message '%s' does not quote '%s'", msg, text);
  ck_assert_msg(!strchr(msg, '\n'), "message '%s' spans several lines", msg);
  moreau_error_clear();
}

static void setup(void)
{
  moreau_error_clear();
  ck_assert_int_eq(PetscOptionsClear(NULL), 0);
}

START_TEST(test_defaults_come_from_the_table)
{
  double r, list[4];
  int64_t i;
  int b, k, n = 4;
  char text[16];
  ck_assert_int_eq(moreau_option_real("-tst_real", &r), 0);
  ck_assert(r == strtod(test_options[0].default_value, NULL));
  ck_assert_int_eq(moreau_option_int("-tst_int", &i), 0);
  ck_assert_int_eq(i, -7);
  ck_assert_int_eq(moreau_option_bool("-tst_flag", &b), 0);
  ck_assert_int_eq(b, 1);
  ck_assert_int_eq(moreau_option_string("-tst_text", text, sizeof(text)), 0);
  ck_assert_str_eq(text, "abc");
  ck_assert_int_eq(moreau_option_reals("-tst_list", list, &n), 0);
  ck_assert_int_eq(n, 3);
  ck_assert(list[0] == 1.0 && list[1] == -2.5 && list[2] == 4000.0);
  n = 4;
  ck_assert_int_eq(moreau_option_reals("-tst_none", list, &n), 0);
  ck_assert_int_eq(n, 0);
  ck_assert_int_eq(moreau_option_enum("-tst_kind", kinds, &k), 0);
  ck_assert_int_eq(k, 1);
  ck_assert_int_eq(moreau_option_string("-tst_fam5_mode", text, sizeof(text)), 0);
  ck_assert_str_eq(text, "idle");
}
END_TEST

START_TEST(test_given_values_are_read)
{
  double r, list[4];
  int64_t i;
  int b, k, set, n = 4;
  char text[16];
  set_options("-tst_real -1.25e-3 -tst_int 42 -tst_flag false -tst_text hello -tst_list 3,0.5 -tst_kind gamma");
  ck_assert_int_eq(moreau_option_real("-tst_real", &r), 0);
  ck_assert(r == -1.25e-3);
  ck_assert_int_eq(moreau_option_int("-tst_int", &i), 0);
  ck_assert_int_eq(i, 42);
  ck_assert_int_eq(moreau_option_bool("-tst_flag", &b), 0);
  ck_assert_int_eq(b, 0);
  ck_assert_int_eq(moreau_option_string("-tst_text", text, sizeof(text)), 0);
  ck_assert_str_eq(text, "hello");
  ck_assert_int_eq(moreau_option_reals("-tst_list", list, &n), 0);
  ck_assert_int_eq(n, 2);
  ck_assert(list[0] == 3.0 && list[1] == 0.5);
  ck_assert_int_eq(moreau_option_enum("-tst_kind", kinds, &k), 0);
  ck_assert_int_eq(k, 2);
  ck_assert_int_eq(moreau_option_is_set("-tst_real", &set), 0);
  ck_assert_int_eq(set, 1);
  ck_assert_int_eq(moreau_option_is_set("-tst_none", &set), 0);
  ck_assert_int_eq(set, 0);
  set_one("-tst_int", "-3");
  ck_assert_int_eq(moreau_option_int("-tst_int", &i), 0);
  ck_assert_int_eq(i, -3);
}
END_TEST

START_TEST(test_bool_spellings)
{
  static const char *const yes[] = {"1", "true", "TRUE", "yes", "on", NULL};
  static const char *const no[] = {"0", "false", "False", "no", "off", NULL};
  int b;
  for (int i = 0; yes[i]; i++) {
    set_one("-tst_flag", yes[i]);
    b = 0;
    ck_assert_int_eq(moreau_option_bool("-tst_flag", &b), 0);
    ck_assert_msg(b == 1, "'%s' did not read as true", yes[i]);
  }
  for (int i = 0; no[i]; i++) {
    set_one("-tst_flag", no[i]);
    b = 1;
    ck_assert_int_eq(moreau_option_bool("-tst_flag", &b), 0);
    ck_assert_msg(b == 0, "'%s' did not read as false", no[i]);
  }
  /* A flag without a value switches the option on, as in PETSc. */
  set_options("-tst_flag");
  b = 0;
  ck_assert_int_eq(moreau_option_bool("-tst_flag", &b), 0);
  ck_assert_int_eq(b, 1);
}
END_TEST

START_TEST(test_bad_values_are_input_errors)
{
  static const char *const bad_reals[] = {"abc", "1.5x", "nan", "inf", "1e999", "1,2", NULL};
  static const char *const bad_ints[] = {"abc", "1.5", "1e3", "12x", "99999999999999999999", NULL};
  double r, list[2];
  int64_t i;
  int b, k, n;
  char text[4];
  for (int j = 0; bad_reals[j]; j++) {
    set_one("-tst_real", bad_reals[j]);
    expect_input_error(moreau_option_real("-tst_real", &r), "-tst_real", bad_reals[j]);
  }
  for (int j = 0; bad_ints[j]; j++) {
    set_one("-tst_int", bad_ints[j]);
    expect_input_error(moreau_option_int("-tst_int", &i), "-tst_int", bad_ints[j]);
  }
  set_one("-tst_flag", "maybe");
  expect_input_error(moreau_option_bool("-tst_flag", &b), "-tst_flag", "maybe");
  set_one("-tst_kind", "delta");
  expect_input_error(moreau_option_enum("-tst_kind", kinds, &k), "-tst_kind", "delta");
  set_one("-tst_kind", "delta");
  ck_assert_int_eq(moreau_option_enum("-tst_kind", kinds, &k), MOREAU_ERR_INPUT);
  ck_assert_msg(strstr(moreau_error_message(), "alpha|beta|gamma"), "choices not listed: %s", moreau_error_message());
  moreau_error_clear();
  set_one("-tst_text", "toolong");
  expect_input_error(moreau_option_string("-tst_text", text, sizeof(text)), "-tst_text", NULL);
  set_one("-tst_list", "1,x");
  n = 2;
  expect_input_error(moreau_option_reals("-tst_list", list, &n), "-tst_list", "x");
  set_one("-tst_list", "1,2,3");
  n = 2;
  expect_input_error(moreau_option_reals("-tst_list", list, &n), "-tst_list", NULL);
}
END_TEST

/* "-box 0,,1,1" is a typo; reading it as three numbers would shift the rest. */
START_TEST(test_empty_list_fields_are_errors)
{
  static const char *const bad[] = {"1,,2", ",1", "1,", "1, ,2", NULL};
  double list[4];
  int n;
  for (int j = 0; bad[j]; j++) {
    set_one("-tst_list", bad[j]);
    n = 4;
    expect_input_error(moreau_option_reals("-tst_list", list, &n), "-tst_list", NULL);
  }
  set_one("-tst_list", " 1 , 2 ");
  n = 4;
  ck_assert_int_eq(moreau_option_reals("-tst_list", list, &n), 0);
  ck_assert_int_eq(n, 2);
  ck_assert(list[0] == 1.0 && list[1] == 2.0);
}
END_TEST

/* `-dt` alone at the end of a command line must not read as a default. */
START_TEST(test_missing_value_is_an_error)
{
  double r, list[4];
  int64_t i;
  int k, n = 4;
  char text[16];
  set_options("-tst_real");
  expect_input_error(moreau_option_real("-tst_real", &r), "-tst_real", "<real>");
  set_options("-tst_int");
  expect_input_error(moreau_option_int("-tst_int", &i), "-tst_int", NULL);
  set_options("-tst_text");
  expect_input_error(moreau_option_string("-tst_text", text, sizeof(text)), "-tst_text", NULL);
  set_options("-tst_list");
  expect_input_error(moreau_option_reals("-tst_list", list, &n), "-tst_list", NULL);
  set_options("-tst_kind");
  expect_input_error(moreau_option_enum("-tst_kind", kinds, &k), "-tst_kind", NULL);
}
END_TEST

START_TEST(test_value_longer_than_the_buffer_is_an_error)
{
  size_t len = 5000;
  char *value = malloc(len + 1);
  double r;
  memset(value, '1', len);
  value[len] = '\0';
  set_one("-tst_real", value);
  expect_input_error(moreau_option_real("-tst_real", &r), "-tst_real", NULL);
  free(value);
}
END_TEST

START_TEST(test_unregistered_names_are_internal_errors)
{
  double r;
  int set;
  set_options("-tst_nothere 1");
  ck_assert_int_eq(moreau_option_real("-tst_nothere", &r), MOREAU_ERR_INTERNAL);
  moreau_error_clear();
  ck_assert_int_eq(moreau_option_is_set("-tst_nothere", &set), MOREAU_ERR_INTERNAL);
  moreau_error_clear();
}
END_TEST

START_TEST(test_numbered_families)
{
  char text[16];
  int set;
  ck_assert_ptr_nonnull(moreau_options_find("-tst_fam3_mode"));
  ck_assert_ptr_nonnull(moreau_options_find("-tst_fam12_mode"));
  ck_assert_ptr_null(moreau_options_find("-tst_famx_mode"));
  ck_assert_ptr_null(moreau_options_find("-tst_fam_mode"));
  ck_assert_ptr_null(moreau_options_find("-tst_fam3x_mode"));
  ck_assert_ptr_null(moreau_options_find("-tst_fam3_modes"));
  ck_assert_ptr_null(moreau_options_find("-tst_fam<i>_mod"));
  set_options("-tst_fam3_mode busy");
  ck_assert_int_eq(moreau_option_string("-tst_fam3_mode", text, sizeof(text)), 0);
  ck_assert_str_eq(text, "busy");
  ck_assert_int_eq(moreau_option_string("-tst_fam4_mode", text, sizeof(text)), 0);
  ck_assert_str_eq(text, "idle");
  ck_assert_int_eq(moreau_option_is_set("-tst_fam3_mode", &set), 0);
  ck_assert_int_eq(set, 1);
  ck_assert_int_eq(moreau_option_is_set("-tst_fam4_mode", &set), 0);
  ck_assert_int_eq(set, 0);
  ck_assert_int_eq(moreau_options_check_unknown(), 0);
  set_options("-tst_famx_mode busy");
  ck_assert_int_eq(moreau_options_check_unknown(), MOREAU_ERR_INPUT);
  ck_assert_msg(strstr(moreau_error_message(), "unknown option -tst_famx_mode"), "%s", moreau_error_message());
  moreau_error_clear();
}
END_TEST

START_TEST(test_closest_name)
{
  ck_assert_str_eq(moreau_options_closest("-tst_rael"), "-tst_real");
  ck_assert_str_eq(moreau_options_closest("-tst_kinds"), "-tst_kind");
  ck_assert_str_eq(moreau_options_closest("-nlgs_tool"), "-nlgs_tol");
  ck_assert_str_eq(moreau_options_closest("-setps"), "-steps");
  ck_assert_str_eq(moreau_options_closest("-log_veiw"), "-log_view");
  /* Numbered families: with the index typed, without it as the pattern. */
  ck_assert_str_eq(moreau_options_closest("-tst_fam3_mod"), "-tst_fam3_mode");
  ck_assert_str_eq(moreau_options_closest("-wall12_veloctiy"), "-wall12_velocity");
  ck_assert_str_eq(moreau_options_closest("-wallx_mode"), "-wall<i>_mode");
}
END_TEST

START_TEST(test_check_unknown)
{
  double r;
  int64_t i;
  /* Every given option read: fine, PETSc's own options too. */
  set_options("-tst_real 1 -tst_int 2 -log_view");
  ck_assert_int_eq(moreau_option_real("-tst_real", &r), 0);
  ck_assert_int_eq(moreau_option_int("-tst_int", &i), 0);
  ck_assert_int_eq(moreau_options_check_unknown(), 0);

  set_options("-tst_real 1 -tst_rela 2");
  ck_assert_int_eq(moreau_option_real("-tst_real", &r), 0);
  ck_assert_int_eq(moreau_options_check_unknown(), MOREAU_ERR_INPUT);
  ck_assert_msg(strstr(moreau_error_message(), "unknown option -tst_rela"), "%s", moreau_error_message());
  ck_assert_msg(strstr(moreau_error_message(), "did you mean -tst_real"), "%s", moreau_error_message());
  moreau_error_clear();

  /* Known but unused in this run: a different message, no suggestion. */
  set_options("-tst_real 1 -tst_int 2");
  ck_assert_int_eq(moreau_option_real("-tst_real", &r), 0);
  ck_assert_int_eq(moreau_options_check_unknown(), MOREAU_ERR_INPUT);
  ck_assert_msg(strstr(moreau_error_message(), "-tst_int"), "%s", moreau_error_message());
  ck_assert_msg(!strstr(moreau_error_message(), "unknown"), "%s", moreau_error_message());
  moreau_error_clear();

  /* Asking whether an option is set counts as reading it. */
  set_options("-tst_int 2");
  {
    int set;
    ck_assert_int_eq(moreau_option_is_set("-tst_int", &set), 0);
  }
  ck_assert_int_eq(moreau_options_check_unknown(), 0);
}
END_TEST

/* -help shows each option of a table with its kind, and its default exactly
 * when the table has one. */
START_TEST(test_help_lists_table)
{
  FILE *f = tmpfile();
  char text[1 << 16];
  size_t len;
  ck_assert_ptr_nonnull(f);
  moreau_options_print_help(f);
  rewind(f);
  len = fread(text, 1, sizeof(text) - 1, f);
  text[len] = '\0';
  fclose(f);
  ck_assert_msg(strstr(text, "\nTest group:\n"), "group missing");
  for (const moreau_option_spec *s = test_options; s->name; s++) {
    char *line = strstr(text, s->name), *eol;
    ck_assert_msg(line, "%s missing from -help", s->name);
    eol = strchr(line, '\n');
    *eol = '\0';
    ck_assert_msg(strstr(line, s->kind) && strstr(line, s->help), "line of %s: %s", s->name, line);
    if (s->default_value[0]) {
      char want[64];
      snprintf(want, sizeof(want), "(default: %s)", s->default_value);
      ck_assert_msg(strstr(line, want), "line of %s lacks %s: %s", s->name, want, line);
    } else {
      ck_assert_msg(!strstr(line, "(default:"), "line of %s shows a default: %s", s->name, line);
    }
    *eol = '\n';
  }
}
END_TEST

int main(int argc, char **argv)
{
  int failed;
  if (PetscInitialize(&argc, &argv, NULL, NULL)) return EXIT_FAILURE;
  if (moreau_options_register("Test group", test_options) || moreau_app_register_options()) return EXIT_FAILURE;
  Suite *s = suite_create("options");
  TCase *tc = tcase_create("options");
  tcase_add_checked_fixture(tc, setup, NULL);
  tcase_add_test(tc, test_defaults_come_from_the_table);
  tcase_add_test(tc, test_given_values_are_read);
  tcase_add_test(tc, test_bool_spellings);
  tcase_add_test(tc, test_bad_values_are_input_errors);
  tcase_add_test(tc, test_empty_list_fields_are_errors);
  tcase_add_test(tc, test_missing_value_is_an_error);
  tcase_add_test(tc, test_value_longer_than_the_buffer_is_an_error);
  tcase_add_test(tc, test_unregistered_names_are_internal_errors);
  tcase_add_test(tc, test_numbered_families);
  tcase_add_test(tc, test_closest_name);
  tcase_add_test(tc, test_check_unknown);
  tcase_add_test(tc, test_help_lists_table);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  PetscFinalize();
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
