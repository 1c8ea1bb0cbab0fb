// Writes a small CMYK ICC profile for ColourTransformTests (Fixtures/icc/NaiveCMYK.icc): the
// naive ink formula of CMYKConversion.swift (R = (1 − C)(1 − K), ...) read as sRGB, sampled
// into a 7-point CLUT to Lab. No real printing process; it exists because no freely licensed
// CMYK profile ships with Debian's colord-data, and it exercises lcms2's CMYK path.
//
//   cc -O2 scripts/make-cmyk-profile.c -o /tmp/make-cmyk-profile -llcms2
//   /tmp/make-cmyk-profile Fixtures/icc/NaiveCMYK.icc
#include <lcms2.h>
#include <stdio.h>

static cmsHTRANSFORM to_lab;

static int sample(const cmsUInt16Number in[], cmsUInt16Number out[], void *cargo) {
  (void)cargo;
  double black = 1.0 - in[3] / 65535.0;
  double rgb[3];
  for (int i = 0; i < 3; i++) rgb[i] = (1.0 - in[i] / 65535.0) * black;
  cmsCIELab lab;
  cmsDoTransform(to_lab, rgb, &lab, 1);
  cmsFloat2LabEncoded(out, &lab);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: %s out.icc\n", argv[0]); return 2; }
  cmsHPROFILE srgb = cmsCreate_sRGBProfile(), lab = cmsCreateLab4Profile(NULL);
  to_lab = cmsCreateTransform(srgb, TYPE_RGB_DBL, lab, TYPE_Lab_DBL, INTENT_RELATIVE_COLORIMETRIC, 0);
  cmsHPROFILE profile = cmsCreateProfilePlaceholder(NULL);
  cmsSetProfileVersion(profile, 2.1);
  cmsSetDeviceClass(profile, cmsSigOutputClass);
  cmsSetColorSpace(profile, cmsSigCmykData);
  cmsSetPCS(profile, cmsSigLabData);
  cmsPipeline *pipeline = cmsPipelineAlloc(NULL, 4, 3);
  cmsStage *clut = cmsStageAllocCLut16bit(NULL, 7, 4, 3, NULL);
  if (!to_lab || !pipeline || !clut || !cmsStageSampleCLut16bit(clut, sample, NULL, 0)) return 1;
  cmsPipelineInsertStage(pipeline, cmsAT_BEGIN, clut);
  cmsMLU *description = cmsMLUalloc(NULL, 1);
  cmsMLUsetASCII(description, "en", "US", "hexmask naive CMYK (test profile)");
  cmsMLU *copyright = cmsMLUalloc(NULL, 1);
  cmsMLUsetASCII(copyright, "en", "US", "No copyright, use freely (hexmask test fixture)");
  if (!cmsWriteTag(profile, cmsSigAToB0Tag, pipeline) ||
      !cmsWriteTag(profile, cmsSigMediaWhitePointTag, cmsD50_XYZ()) ||
      !cmsWriteTag(profile, cmsSigProfileDescriptionTag, description) ||
      !cmsWriteTag(profile, cmsSigCopyrightTag, copyright) ||
      !cmsSaveProfileToFile(profile, argv[1]))
    return 1;
  return 0;
}
