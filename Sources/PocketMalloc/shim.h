// glibc's allocator settings (mallopt), which its Swift module does not export. Swift calls it only
// where Glibc is the C library.
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif
