#ifndef IMAGE_SHIMS_H
#define IMAGE_SHIMS_H
// Placeholder; the codec work fills this in.
int hm_shims_version(void);
#endif
