// Debian libdeflate-dev: whole-buffer gzip for responses, several times zlib's speed at its
// fastest level and smaller too (bench/README.md, Compression).
#include <libdeflate.h>
