/* hello: argc/argv through printf; exit status 3. */
#include <stdio.h>

int main(int argc, char **argv)
{
	printf("hello, world: argc=%d\n", argc);
	for (int i = 0; i < argc; i++)
		printf("argv[%d]=\"%s\"\n", i, argv[i]);
	return 3;
}
