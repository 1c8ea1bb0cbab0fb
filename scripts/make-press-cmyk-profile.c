// Writes a press-like CMYK ICC profile for the colour accuracy fixtures
// (Fixtures/icc/PressCMYK.icc). NaiveCMYK.icc is the naive ink formula itself, so a converter
// that ignores it and applies the formula still gets its colours right, and it has only an
// AToB0 table, which libvips 8.14 refuses for the relative intent (it swaps in its own CMYK
// profile). This one differs from the formula as a real press does, and has AToB1 too:
//   - impure inks: each ink passes part of the light it should absorb (cyan lets some red
//     through, magenta some green, ...), in linear sRGB, multiplied together on white paper;
//   - dot gain: a 50 % dot prints as about 65 % (coverage 1 − (1 − c)^1.5);
//   - black is not black: all four inks at 100 % reach about L* 5, so black point
//     compensation matters.
// No real printing condition; no freely licensed CMYK profile ships with Debian (colord-data
// has none, ghostscript's are AGPL-3+).
//
//   cc -O2 scripts/make-press-cmyk-profile.c -o /tmp/make-press-cmyk-profile -llcms2 -lm
//   /tmp/make-press-cmyk-profile Fixtures/icc/PressCMYK.icc
#include <lcms2.h>
#include <math.h>
#include <stdio.h>

// Linear-light transmittance of each ink at full coverage, for R, G and B.
static const double INKS[4][3] = {
  {0.18, 0.60, 0.88},   // cyan
  {0.82, 0.20, 0.50},   // magenta
  {0.95, 0.88, 0.12},   // yellow
  {0.05, 0.05, 0.055},  // black
};

static cmsHTRANSFORM to_lab;

static int sample(const cmsUInt16Number in[], cmsUInt16Number out[], void *cargo) {
  (void)cargo;
  double rgb[3] = {1.0, 1.0, 1.0};
  for (int ink = 0; ink < 4; ink++) {
    double coverage = 1.0 - pow(1.0 - in[ink] / 65535.0, 1.5);
    for (int i = 0; i < 3; i++) rgb[i] *= 1.0 - coverage * (1.0 - INKS[ink][i]);
  }
  cmsCIELab lab;
  cmsDoTransform(to_lab, rgb, &lab, 1);
  cmsFloat2LabEncodedV2(out, &lab);  // a v2 profile: v2 Lab encoding (L 100 = 0xFF00)
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: %s out.icc\n", argv[0]); return 2; }
  // Linear sRGB: the sRGB primaries and D65 white with a gamma 1 curve.
  cmsCIExyY d65 = {0.3127, 0.3290, 1.0};
  cmsCIExyYTRIPLE primaries = {{0.64, 0.33, 1.0}, {0.30, 0.60, 1.0}, {0.15, 0.06, 1.0}};
  cmsToneCurve *linear = cmsBuildGamma(NULL, 1.0);
  cmsToneCurve *curves[3] = {linear, linear, linear};
  cmsHPROFILE light = cmsCreateRGBProfile(&d65, &primaries, curves);
  cmsHPROFILE lab = cmsCreateLab4Profile(NULL);
  if (!linear || !light || !lab) return 1;
  to_lab = cmsCreateTransform(light, TYPE_RGB_DBL, lab, TYPE_Lab_DBL,
                              INTENT_RELATIVE_COLORIMETRIC, 0);
  cmsHPROFILE profile = cmsCreateProfilePlaceholder(NULL);
  cmsSetProfileVersion(profile, 2.1);
  cmsSetDeviceClass(profile, cmsSigInputClass);  // source only: no BToA tables
  cmsSetColorSpace(profile, cmsSigCmykData);
  cmsSetPCS(profile, cmsSigLabData);
  cmsPipeline *pipeline = cmsPipelineAlloc(NULL, 4, 3);
  cmsStage *clut = cmsStageAllocCLut16bit(NULL, 7, 4, 3, NULL);
  if (!to_lab || !pipeline || !clut || !cmsStageSampleCLut16bit(clut, sample, NULL, 0)) return 1;
  cmsPipelineInsertStage(pipeline, cmsAT_BEGIN, clut);
  cmsMLU *description = cmsMLUalloc(NULL, 1);
  cmsMLUsetASCII(description, "en", "US", "hexmask press-like CMYK (test profile)");
  cmsMLU *copyright = cmsMLUalloc(NULL, 1);
  cmsMLUsetASCII(copyright, "en", "US", "No copyright, use freely (hexmask test fixture)");
  // AToB1 (relative colorimetric) is the same table, linked rather than stored twice.
  if (!description || !copyright ||
      !cmsWriteTag(profile, cmsSigAToB0Tag, pipeline) ||
      !cmsLinkTag(profile, cmsSigAToB1Tag, cmsSigAToB0Tag) ||
      !cmsWriteTag(profile, cmsSigMediaWhitePointTag, cmsD50_XYZ()) ||
      !cmsWriteTag(profile, cmsSigProfileDescriptionTag, description) ||
      !cmsWriteTag(profile, cmsSigCopyrightTag, copyright) ||
      !cmsSaveProfileToFile(profile, argv[1]))
    return 1;
  return 0;
}
