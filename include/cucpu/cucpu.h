/*
 * cucpu/cucpu.h - cucpu's own additions to the driver API.
 *
 * These are not part of NVIDIA's driver; a program that wants to run on both
 * should look them up with dlsym and treat their absence as normal.
 */
#ifndef CUCPU_CUCPU_H
#define CUCPU_CUCPU_H

#ifdef __cplusplus
extern "C" {
#endif

/** The message that explains the last failed driver call of the calling
    thread ("" if none failed). The text stays valid until the thread's next
    failing call. */
const char *cucpuGetLastErrorMessage(void);

#ifdef __cplusplus
}
#endif

#endif /* CUCPU_CUCPU_H */
