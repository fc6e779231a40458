// A header with an include guard and no includes of its own.
#ifndef GUARDED_H
#define GUARDED_H

inline void guarded_user();

#endif
