// Debian libqrencode-dev: QR code symbols for pairing links.
#include <qrencode.h>
