// Debian libexpat1-dev: the XML parser for GPX files. It needs nothing but libc, where
// Foundation's XMLParser loads libxml2, ICU and liblzma into every process that links it.
#include <expat.h>
