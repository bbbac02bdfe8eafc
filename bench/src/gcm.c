/* AES-128-GCM of N MiB (argument, default 4) through OpenSSL's EVP
 * interface, 16 KiB per update: what `openssl speed -evp aes-128-gcm`
 * measures, as a fixed amount of work whose time the bench can compare.
 * Prints the tag. A host program (libcrypto): bench/run.sh builds it where
 * the headers are. */
#include <stdio.h>
#include <stdlib.h>
#include <openssl/evp.h>

int main(int argc, char **argv)
{
	static unsigned char in[16384], out[16384 + 16];
	unsigned char key[16] = { 0 }, iv[12] = { 0 }, tag[16];
	long mib = argc > 1 ? atol(argv[1]) : 4;
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	int len;

	for (size_t k = 0; k < sizeof(in); k++)
		in[k] = (unsigned char)(k * 131 + 7);
	if (!ctx || !EVP_EncryptInit_ex(ctx, EVP_aes_128_gcm(), NULL, key, iv))
		return 1;
	for (long n = 0; n < mib * 64; n++)
		if (!EVP_EncryptUpdate(ctx, out, &len, in, (int)sizeof(in)))
			return 1;
	if (!EVP_EncryptFinal_ex(ctx, out, &len) ||
	    !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, 16, tag))
		return 1;
	for (int k = 0; k < 16; k++)
		printf("%02x", tag[k]);
	printf("\n");
	EVP_CIPHER_CTX_free(ctx);
	return 0;
}
