// Writes a Display P3 ICC profile for the colour accuracy fixtures (Fixtures/icc/DisplayP3.icc):
// the P3 primaries (R 0.680,0.320  G 0.265,0.690  B 0.150,0.060), the D65 white point and the
// sRGB tone curve (ICC parametric curve type 4), as Apple's "Display P3" profile describes it.
// Apple's own profile is not freely licensed, and colord-data ships none, so the fixtures that
// stand for a phone photo carry this one; lcms2 adapts D65 to the D50 PCS (Bradford) itself.
//
//   cc -O2 scripts/make-p3-profile.c -o /tmp/make-p3-profile -llcms2
//   /tmp/make-p3-profile Fixtures/icc/DisplayP3.icc
#include <lcms2.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: %s out.icc\n", argv[0]); return 2; }
  // D65 as the standards give it (x 0.3127, y 0.3290), not lcms2's 6504 K approximation.
  cmsCIExyY white = {0.3127, 0.3290, 1.0};
  cmsCIExyYTRIPLE primaries = {
    {0.680, 0.320, 1.0},
    {0.265, 0.690, 1.0},
    {0.150, 0.060, 1.0},
  };
  // IEC 61966-2-1: Y = ((X + 0.055) / 1.055)^2.4 above 0.04045, X / 12.92 below.
  cmsFloat64Number srgb[5] = {2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045};
  cmsToneCurve *curve = cmsBuildParametricToneCurve(NULL, 4, srgb);
  if (!curve) return 1;
  cmsToneCurve *curves[3] = {curve, curve, curve};
  cmsHPROFILE profile = cmsCreateRGBProfile(&white, &primaries, curves);
  if (!profile) return 1;
  cmsSetProfileVersion(profile, 4.3);
  cmsMLU *description = cmsMLUalloc(NULL, 1);
  cmsMLUsetASCII(description, "en", "US", "Display P3 (hexmask)");
  cmsMLU *copyright = cmsMLUalloc(NULL, 1);
  cmsMLUsetASCII(copyright, "en", "US", "No copyright, use freely (hexmask test fixture)");
  if (!description || !copyright ||
      !cmsWriteTag(profile, cmsSigProfileDescriptionTag, description) ||
      !cmsWriteTag(profile, cmsSigCopyrightTag, copyright) ||
      !cmsSaveProfileToFile(profile, argv[1]))
    return 1;
  return 0;
}
