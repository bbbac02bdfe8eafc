/* nop: a static program that does nothing: its run time is start-up
 * (exec, loader, libc initialisation) and exit. */
int main(void)
{
	return 0;
}
