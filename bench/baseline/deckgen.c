/*
 * deckgen: a straightforward generator of the projective plane of order 256,
 * the baseline that scripts/bench.sh measures `dobble deck` against.
 *
 * Points are the affine points (x, y) over GF(256), numbered x*256 + y, plus
 * one point at infinity per slope m (65536 + m) and one for vertical lines
 * (65536 + 256). Cards are the lines y = m*x + b, the vertical lines x = c
 * and the line at infinity, printed one a line with printf, ids in the order
 * they are generated (not sorted).
 *
 * Build: cc -O2 -o deckgen deckgen.c; run: ./deckgen > /dev/null
 */
#include <stdio.h>

#define Q 256

/* gmul multiplies in GF(2^8) modulo x^8 + x^4 + x^3 + x^2 + 1. */
static int gmul(int a, int b) {
	int p = 0;
	while (b) {
		if (b & 1)
			p ^= a;
		a <<= 1;
		if (a & 0x100)
			a ^= 0x11d;
		b >>= 1;
	}
	return p;
}

int main(void) {
	for (int m = 0; m < Q; m++) {
		for (int b = 0; b < Q; b++) {
			printf("%d", Q * Q + m);
			for (int x = 0; x < Q; x++)
				printf(" %d", x * Q + (gmul(m, x) ^ b));
			printf("\n");
		}
	}
	for (int c = 0; c < Q; c++) {
		printf("%d", Q * Q + Q);
		for (int y = 0; y < Q; y++)
			printf(" %d", c * Q + y);
		printf("\n");
	}
	for (int m = 0; m <= Q; m++)
		printf(m ? " %d" : "%d", Q * Q + m);
	printf("\n");
	return 0;
}
