/* FXSAVE/FXRSTOR (with REX.W in 64-bit mode: the 64-bit FIP/FDP format),
 * executed by the host on the guest's x87/SSE state so the 512-byte image
 * is the hardware's to the byte: abridged tags, reserved fields, the bytes
 * it leaves alone (464..511, and XMM8..15 outside 64-bit mode). XSAVE's
 * legacy region (xsave.c) is the same image. */
#include "cpu/ops.h"
#include "cpu/x87.h"

extern const uint8_t fx_thunk_save[], fx_thunk_save64[], fx_thunk_rstor[], fx_thunk_rstor64[];
__asm__(".text\n"
	"fx_thunk_save: fxsave (%rdi); ret\n"
	"fx_thunk_save64: fxsave64 (%rdi); ret\n"
	"fx_thunk_rstor: fxrstor (%rdi); ret\n"
	"fx_thunk_rstor64: fxrstor64 (%rdi); ret\n");

/* XMM8..15 live in bytes 288..415 of the image; outside 64-bit mode
 * neither instruction touches them. */
#define FX_XMM8 288
#define FX_XMM8_LEN 128

void fx_host_save(const struct cpu *c, void *img, bool w)
{
	uint32_t host_mxcsr;
	struct fx_area fx;

	x87_to_fx(c, &fx, true);
	__asm__ volatile("stmxcsr %0" : "=m"(host_mxcsr));
	x87_host_call(&fx, w ? fx_thunk_save64 : fx_thunk_save, img, NULL);
	__asm__ volatile("ldmxcsr %0" : : "m"(host_mxcsr));
}

void fx_host_load(struct cpu *c, const void *img, bool w)
{
	uint32_t host_mxcsr;
	cpu_xmm hi[8];
	struct fx_area fx;

	memcpy(hi, &c->xmm[8], sizeof(hi));
	x87_to_fx(c, &fx, true);
	__asm__ volatile("stmxcsr %0" : "=m"(host_mxcsr));
	x87_host_call(&fx, w ? fx_thunk_rstor64 : fx_thunk_rstor, (void *)img, NULL);
	__asm__ volatile("ldmxcsr %0" : : "m"(host_mxcsr));
	x87_from_fx(c, &fx, true);
	if (c->mode != CPU_MODE_64)
		memcpy(&c->xmm[8], hi, sizeof(hi));
}

static void fx_run(struct cpu *c, const struct insn *i, bool save)
{
	uint64_t ea = insn_ea(c, i);
	bool w = c->mode == CPU_MODE_64 && (insn_cold(i)->rex & 8);
	uint8_t img[512] __attribute__((aligned(16)));
	uint32_t mxcsr;

	if (ea & 15) {
		cpu_raise_addr(c, VEC_GP, ea);
		return;
	}
	guest_read(img, ea, 512);
	if (save) {
		guest_write(ea, img, 512); /* fault on a read-only page here */
		fx_host_save(c, img, w);
		if (c->mode != CPU_MODE_64)
			guest_read(img + FX_XMM8, ea + FX_XMM8, FX_XMM8_LEN);
		guest_write(ea, img, 512);
		return;
	}
	memcpy(&mxcsr, img + 24, 4);
	if (mxcsr & ~MXCSR_MASK) {
		cpu_raise(c, VEC_GP);
		return;
	}
	fx_host_load(c, img, w);
}

void op_fxsave_M(struct cpu *c, const struct insn *i)
{
	fx_run(c, i, true);
}

void op_fxrstor_M(struct cpu *c, const struct insn *i)
{
	fx_run(c, i, false);
}
