/*
 * This file is auto-generated. Modifications will be lost.
 *
 * See https://android.googlesource.com/platform/bionic/+/master/libc/kernel/
 * for more information.
 */
#ifndef _ASM_X86_HWCAP2_H
#define _ASM_X86_HWCAP2_H
#include <linux/const.h>
#define HWCAP2_RING3MWAIT _BITUL(0)
#define HWCAP2_FSGSBASE _BITUL(1)
#endif
