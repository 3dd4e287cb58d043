// Nettle's SHA-256 and Ed25519 (hogweed): the hashing and signing FlowPackage needs, from the
// system library libarchive already brings along, so a build compiles no crypto library.
#include <nettle/sha2.h>
#include <nettle/eddsa.h>
