// The system zlib, for its CRC-32 (ZIPFoundation computes CRCs in Swift on Linux, several times slower).
#include <zlib.h>
