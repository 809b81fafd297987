/*
 * --target presets: an alignment and a RAM size for a representative part of each family. The RAM size becomes the
 * capacity (the arena must fit the part's SRAM; the application's own data is not subtracted). The alignment becomes
 * the default of CSV input only: a .tflite model (and the example) is planned as TFLM plans it, and TFLM aligns every
 * tensor to 16 bytes (MicroArenaBufferAlignment) on every target, so a preset's own alignment, which serves other
 * runtimes, would make the plan disagree with TFLM. The reason for each figure is printed by `aplan targets` and
 * documented in docs/cli.md. Names match without regard to case. Every preset is a 32-bit core (4-byte pointers, as
 * TFLM's structs are laid out on it: the default of --abi).
 */

#include "host.h"

/* The memory maps of the presets that have one: NAME:SIZE:ALIGN, fastest first; the sources are their why_regions. */
static const aplan_host_region_spec esp32_s3_psram[] = {{"sram", 458752u, 16u}, {"psram", 8388608u, 32u}};
static const aplan_host_region_spec stm32h743[] = {{"dtcm", 131072u, 16u}, {"axi", 524288u, 32u}};
static const aplan_host_region_spec imxrt1060[] = {
    {"dtcm", 131072u, 16u}, {"ocram", 786432u, 32u}, {"sdram", 33554432u, 32u}};

static const aplan_host_target targets[] = {
    {"cortex-m0plus", "Cortex-M0+ (Raspberry Pi RP2040)", 4u, 270336u, 32u, APLAN_TFLM_ISA_PORTABLE,
     "ARMv6-M has no DSP extension: CMSIS-NN builds its portable C",
     "ARMv6-M faults on unaligned word loads, so int32 accumulators and bias tensors need 4-byte offsets",
     "RP2040 datasheet: 264 KiB of on-chip SRAM in six banks", NULL, 0, NULL},
    {"cortex-m4", "Cortex-M4F (Nordic nRF52840, Arduino Nano 33 BLE Sense)", 4u, 262144u, 32u, APLAN_TFLM_ISA_DSP,
     "the DSP extension: CMSIS-NN builds with ARM_MATH_DSP",
     "LDRD/LDM and the CMSIS-NN SIMD (SMLAD) paths read aligned 32-bit words",
     "nRF52840 product specification: 256 KiB RAM; the board TFLM's micro examples target", NULL, 0, NULL},
    {"cortex-m7", "Cortex-M7 (STM32F746, 32F746GDISCOVERY)", 32u, 327680u, 32u, APLAN_TFLM_ISA_DSP,
     "the DSP extension: CMSIS-NN builds with ARM_MATH_DSP",
     "the M7 data cache line is 32 bytes; buffers shared with DMA need cache-line alignment for clean/invalidate",
     "STM32F746 datasheet: 320 KiB SRAM (incl. 64 KiB DTCM); a TFLM example board", NULL, 0, NULL},
    {"cortex-m55-ethos-u55", "Cortex-M55 with Ethos-U55 (Arm Corstone-300)", 16u, 2097152u, 32u, -1,
     "CMSIS-NN builds its Helium (MVE) code there, whose scratch sizes the model does not cover",
     "the Ethos-U driver and Vela require 16-byte aligned tensors, scratch and command buffers",
     "Corstone-300 (SSE-300, MPS3 AN552/FVP): 2 MiB of internal SRAM that Arm's examples place the arena in", NULL,
     0, NULL},
    {"esp32-s3", "Xtensa LX7 (Espressif ESP32-S3)", 16u, 524288u, 32u, -1,
     "not an Arm core: TFLM there uses ESP-NN, not CMSIS-NN",
     "the PIE SIMD extension's 128-bit loads (used by ESP-NN) need 16-byte aligned operands",
     "ESP32-S3 datasheet: 512 KiB of internal SRAM (no PSRAM counted)", NULL, 0, NULL},
    {"dsp64", "generic DSP with 512-bit (64-byte) SIMD", 64u, 1048576u, 32u, -1,
     "not an Arm core: CMSIS-NN does not apply",
     "aligned 64-byte vector loads, as on 512-bit vector DSPs and AVX-512",
     "a round 1 MiB of local data memory; not a specific part, adjust with --capacity", NULL, 0, NULL},
    /* Memory maps: plan --target NAME plans across the regions, fastest first (docs/cli.md, "Regions"). */
    {"esp32-s3-psram", "Xtensa LX7 (ESP32-S3-WROOM-1-N8R8: internal SRAM and 8 MiB octal PSRAM)", 16u, 8388608u,
     32u, -1, "not an Arm core: TFLM there uses ESP-NN, not CMSIS-NN",
     "the PIE SIMD extension's 128-bit loads (used by ESP-NN) need 16-byte aligned operands",
     "the largest region, the PSRAM", esp32_s3_psram, 2,
     "sram 448 KiB: the 512 KiB of internal SRAM (ESP32-S3 datasheet) less the 64 KiB ESP-IDF gives the flash "
     "caches, the data-capable part before the application's own; psram 8 MiB: the N8R8 module's octal PSRAM "
     "(ESP32-S3-WROOM-1 datasheet), reached through the data cache (32-byte lines: ESP-IDF's external RAM guide)"},
    {"stm32h743", "Cortex-M7 (STMicroelectronics STM32H743: DTCM and AXI SRAM)", 32u, 524288u, 32u,
     APLAN_TFLM_ISA_DSP, "the DSP extension: CMSIS-NN builds with ARM_MATH_DSP",
     "the M7 data cache line is 32 bytes; buffers shared with DMA need cache-line alignment for clean/invalidate",
     "the largest region, the AXI SRAM", stm32h743, 2,
     "dtcm 128 KiB at 0x20000000, zero wait states, not cached; axi 512 KiB of AXI SRAM at 0x24000000, through the "
     "32-byte-line data cache (STM32H743 datasheet and RM0433: 192 KiB TCM, 864 KiB user SRAM; the D2 SRAM1-3 and "
     "SRAM4 are left to the application)"},
    {"imxrt1060", "Cortex-M7 (NXP i.MX RT1060, MIMXRT1060-EVKB: DTCM, OCRAM, SDRAM)", 32u, 33554432u, 32u,
     APLAN_TFLM_ISA_DSP, "the DSP extension: CMSIS-NN builds with ARM_MATH_DSP",
     "the M7 data cache line is 32 bytes; buffers shared with DMA need cache-line alignment for clean/invalidate",
     "the largest region, the SDRAM", imxrt1060, 3,
     "dtcm 128 KiB: FlexRAM's default fuse split (128 KiB ITCM, 128 KiB DTCM, 256 KiB OCRAM; NXP AN12077); ocram "
     "768 KiB: the 512 KiB OCRAM2 at 0x20200000 and FlexRAM's 256 KiB OCRAM right after it at 0x20280000 (i.MX "
     "RT1060 reference manual); sdram 32 MiB: the EVKB's SDRAM at 0x80000000, through the data cache"},
};

size_t aplan_host_target_count(void) { return sizeof targets / sizeof targets[0]; }

const aplan_host_target *aplan_host_target_at(size_t i) { return i < aplan_host_target_count() ? &targets[i] : NULL; }

const aplan_host_target *aplan_host_target_find(const char *name) {
    for (size_t i = 0; i < aplan_host_target_count(); i++) {
        if (aplan_host_same_name(targets[i].name, name)) return &targets[i];
    }
    return NULL;
}
