// Swift does not import pcre2.h's function-like macros (pcre2_compile -> pcre2_compile_8),
// so callers use the explicit _8 names; the width must be fixed before the include.
#ifndef TRAWL_CPCRE2_SHIM_H
#define TRAWL_CPCRE2_SHIM_H
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif
