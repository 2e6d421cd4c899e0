import { z } from '../validation.ts';
import { EMAIL_MAX } from './auth.ts';

/**
 * The player's own account: e-mail, driver's licence, and its verification
 * (docs/product.md#screens, docs/product.md#validation, docs/product.md#messages).
 */
export const PROFILE_MESSAGES = {
  emailInvalid: 'Please enter a valid email address',
  licenseUploaded: "Driver's license uploaded. Verification pending.",
} as const;

/** docs/product.md#validation: "simple pattern (text, an @, a dot)". */
export const SIMPLE_EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const updateEmailBodySchema = z.strictObject({
  email: z
    .string({ error: PROFILE_MESSAGES.emailInvalid })
    .trim()
    .max(EMAIL_MAX, PROFILE_MESSAGES.emailInvalid)
    .regex(SIMPLE_EMAIL_PATTERN, PROFILE_MESSAGES.emailInvalid)
    // Stored lower-case, as registration stores it.
    .transform((email) => email.toLowerCase()),
});
export type UpdateEmailBody = z.input<typeof updateEmailBodySchema>;

/**
 * The multipart field of POST /api/user/upload-license (docs/product.md#calls). Its size limit and
 * messages are those of every upload (`contracts/uploads.ts`).
 */
export const LICENSE_FIELD = 'driversLicense';
/**
 * The licence's types (docs/product.md#validation), for the file picker's `accept`; the server
 * checks the bytes themselves.
 */
export const LICENSE_ACCEPT = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'application/pdf',
  'image/webp',
  'image/heic',
  'image/heif',
  'image/tiff',
  'image/bmp',
  '.png',
  '.jpeg',
  '.jpg',
  '.gif',
  '.pdf',
  '.webp',
  '.heic',
  '.heif',
  '.tiff',
  '.tif',
  '.bmp',
].join(',');

export const VERIFICATION_STATUS_VALUES = ['none', 'pending', 'approved', 'rejected'] as const;
export type VerificationStatusValue = (typeof VERIFICATION_STATUS_VALUES)[number];

/** GET /api/user/verification: the player's newest licence review. */
export const verificationStatusSchema = z.object({
  status: z.enum(VERIFICATION_STATUS_VALUES),
  /** The admin's note, e.g. why a licence was rejected. */
  note: z.string().nullable(),
  submittedAt: z.string().nullable(),
  reviewedAt: z.string().nullable(),
});
export type VerificationStatus = z.infer<typeof verificationStatusSchema>;

export const uploadLicenseResponseSchema = z.object({
  message: z.string(),
  status: z.enum(VERIFICATION_STATUS_VALUES),
});
export type UploadLicenseResponse = z.infer<typeof uploadLicenseResponseSchema>;

/** GET /api/profile/config: settings the profile screen needs from the server. */
export const profileConfigSchema = z.object({
  /** The separate free site linked from the profile (`FREE_SITE_URL`); null hides the link. */
  freeSiteUrl: z.string().nullable(),
  /** Where cash play is refused (`EXCLUDED_STATES`, docs/responsible-play.md), by state code. */
  excludedStates: z.array(z.string()),
});
export type ProfileConfig = z.infer<typeof profileConfigSchema>;
