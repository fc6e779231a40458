// Its finding is in a header that only $CPATH finds (cache-differential.test):
// a run with CPATH set reports it, one without does not, with or without
// the result cache.
#include <functional>
#if __has_include(<cpath_probe.h>)
#include <cpath_probe.h>
#endif
void cpath_unit(long a) { std::function<void()> f = [a] {}; f(); }
