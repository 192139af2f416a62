// ICU's internal ustrenum.h, which libcore's ICU glue includes and Debian's libicu-dev does not
// ship: the declaration of UStringEnumeration, whose code is in Debian's libicuuc.
#pragma once
#include "unicode/strenum.h"
#include "unicode/uenum.h"

U_NAMESPACE_BEGIN

class U_COMMON_API UStringEnumeration : public StringEnumeration {
 public:
  static UStringEnumeration* U_EXPORT2 fromUEnumeration(UEnumeration* enumToAdopt, UErrorCode& status);
  UStringEnumeration(UEnumeration* uenum);
  virtual ~UStringEnumeration();
  virtual int32_t count(UErrorCode& status) const;
  virtual const char* next(int32_t* resultLength, UErrorCode& status);
  virtual const UnicodeString* snext(UErrorCode& status);
  virtual void reset(UErrorCode& status);
  virtual UClassID getDynamicClassID() const;
  static UClassID U_EXPORT2 getStaticClassID();

 private:
  UEnumeration* uenum;
};

U_NAMESPACE_END
