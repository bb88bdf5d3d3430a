package io.criresmgr.adjustment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class GlobTest {
  // Cases of Go's path/filepath match_test.go semantics, on Linux.
  @ParameterizedTest
  @CsvSource({
    "abc, abc, true",
    "*, abc, true",
    "*c, abc, true",
    "a*, a, true",
    "a*, abc, true",
    "a*, ab/c, false",
    "a*/b, abc/b, true",
    "a*/b, a/c/b, false",
    "a*b*c*d*e*/f, axbxcxdxe/f, true",
    "a*b*c*d*e*/f, axbxcxdxexxx/f, true",
    "a*b*c*d*e*/f, axbxcxdxe/xxx/f, false",
    "a*b*c*d*e*/f, axbxcxdxexxx/fff, false",
    "a*b?c*x, abxbbxdbxebxczzx, true",
    "a*b?c*x, abxbbxdbxebxczzy, false",
    "ab[c], abc, true",
    "ab[b-d], abc, true",
    "ab[e-g], abc, false",
    "ab[^c], abc, false",
    "ab[^b-d], abc, false",
    "ab[^e-g], abc, true",
    "a\\*b, a*b, true",
    "a\\*b, ab, false",
    "a?b, a☺b, true",
    "a[^a]b, a☺b, true",
    "a???b, a☺b, false",
    "a[!a]b, a!b, true",
    "[a-ζ]*, α, true",
    "*[a-ζ], A, false",
    "a?b, a/b, false",
    "a*b, a/b, false",
    "[\\]a], ], true",
    "[\\-], -, true",
    "[x\\-], x, true",
    "[x\\-], -, true",
    "[x\\-], z, false",
    "[\\-x], x, true",
    "[\\-x], a, false",
    "'*x', xxx, true",
    "foobar*, foobar-testing, true",
    "foobar?, foobar12, false",
    "kube-*, kube-system, true",
    "'', '', true",
    "'', a, false"
  })
  void matchesLikeGoFilepathMatch(String pattern, String name, boolean expected) {
    assertEquals(expected, Glob.matches(pattern, name), pattern + " ~ " + name);
  }

  @ParameterizedTest
  @CsvSource({
    "[, empty, unterminated or has a bad range",
    "[^, empty, unterminated or has a bad range",
    "[]a], empty, unterminated or has a bad range",
    "[-], empty, unterminated or has a bad range",
    "[x-], empty, unterminated or has a bad range",
    "[a-b-c], empty, unterminated or has a bad range",
    "a[, empty, unterminated or has a bad range",
    "\\, trailing backslash, ",
    "[\\, trailing backslash, "
  })
  void malformedPatternsAreRejected(String pattern, String problem, String rest) {
    String message =
        assertThrows(IllegalArgumentException.class, () -> Glob.matches(pattern, "x")).getMessage();
    assertEquals(true, message.startsWith("invalid pattern \"" + pattern + "\": "), message);
    assertEquals(true, message.contains(problem), message);
    assertEquals(true, message.endsWith("(syntax: *, ?, [a-z], [^a-z], \\c)"), message);
  }
}
