// ICU's internal ureslocs.h, which libcore's ICU glue includes and Debian's libicu-dev does not
// ship: the names of ICU's data trees, built from the public U_ICUDATA_NAME.
#pragma once
#include "unicode/udata.h"
#include "unicode/utypes.h"

#define U_ICUDATA_LANG U_ICUDATA_NAME U_TREE_SEPARATOR_STRING "lang"
#define U_ICUDATA_REGION U_ICUDATA_NAME U_TREE_SEPARATOR_STRING "region"
#define U_ICUDATA_CURR U_ICUDATA_NAME U_TREE_SEPARATOR_STRING "curr"
#define U_ICUDATA_ZONE U_ICUDATA_NAME U_TREE_SEPARATOR_STRING "zone"
#define U_ICUDATA_UNIT U_ICUDATA_NAME U_TREE_SEPARATOR_STRING "unit"
