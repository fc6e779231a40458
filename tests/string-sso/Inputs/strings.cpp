#include <string>
std::string a() { return "0123456789012345678901234567890"; }
std::u16string b() { return u"0123"; }
std::string c() { return "012345678901234567890"; }
