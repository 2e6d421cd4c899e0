import { z } from '../validation.ts';
import { PASSWORD_MAX, passwordSchema, USERNAME_MAX } from './auth.ts';
import { BIGINT_ID_MAX, idFromText } from './ids.ts';
import { publicUserSchema } from './user.ts';

/**
 * Account security past the SPEC (docs/accounts.md#account-security): passwords, mailed links,
 * two-factor, devices.
 */
export const SECURITY_MESSAGES = {
  currentPasswordRequired: 'Current password is required',
  currentPasswordWrong: 'Current password is incorrect',
  samePassword: 'The new password must differ from the current one',
  passwordChanged: 'Password changed. Your other sessions have been signed out.',
  resetRequested: 'If the account has a verified e-mail, a link is on its way.',
  resetDone: 'Your password has been reset. You are signed in.',
  invalidLink: 'This link is invalid or has expired. Please ask for a new one.',
  emailVerified: 'Your e-mail address is verified.',
  verificationSent: 'A verification link is on its way to your e-mail.',
  noEmail: 'Add an e-mail address first.',
  alreadyVerified: 'Your e-mail address is already verified.',
  codeRequired: 'Enter the code from your authenticator app or a recovery code',
  invalidCode: 'That code is not valid. Please try again.',
  signInExpired: 'This sign-in has expired. Please enter your password again.',
  twoFactorAlreadyOn: 'Two-factor sign-in is already on.',
  twoFactorNotSetUp: 'Start the set-up again: no two-factor secret is waiting.',
  twoFactorOff: 'Two-factor sign-in is not on.',
  adminNeedsTwoFactor: 'Set up two-factor sign-in to use the admin dashboard.',
  sessionNotFound: 'Session not found',
} as const;

/** Accounts that share a device (docs/accounts.md#devices). */
export const DEVICE_LINK_MESSAGES = {
  linkedAccounts: 'You cannot play an account that shares a device with yours.',
  linkNotFound: 'These accounts do not share a device.',
  noteRequired: 'A note is required',
  linkCleared: 'Link cleared. These accounts may play each other.',
  ownLink: 'Another admin must clear a link of your own account.',
} as const;

/**
 * Minutes a password-reset link stays valid, and hours for a verification link
 * (docs/accounts.md#account-security).
 */
export const RESET_TOKEN_MINUTES = 30;
export const VERIFY_TOKEN_HOURS = 24;
/** The password step of a two-factor sign-in waits this long for its code, for this many tries. */
export const SECOND_STEP_MINUTES = 5;
export const SECOND_STEP_TRIES = 5;
export const RECOVERY_CODE_COUNT = 10;

const tokenSchema = z
  .string({ error: SECURITY_MESSAGES.invalidLink })
  .trim()
  .min(1, SECURITY_MESSAGES.invalidLink)
  .max(200, SECURITY_MESSAGES.invalidLink);

/** A six-digit TOTP code, or a recovery code (`xxxxx-xxxxx`); spaces and dashes are ignored. */
export const codeSchema = z
  .string({ error: SECURITY_MESSAGES.codeRequired })
  .trim()
  .min(1, SECURITY_MESSAGES.codeRequired)
  .max(40, SECURITY_MESSAGES.invalidCode);

export const currentPasswordSchema = z
  .string({ error: SECURITY_MESSAGES.currentPasswordRequired })
  .min(1, SECURITY_MESSAGES.currentPasswordRequired)
  .max(PASSWORD_MAX * 4, SECURITY_MESSAGES.currentPasswordWrong);

export const changePasswordBodySchema = z.strictObject({
  currentPassword: currentPasswordSchema,
  newPassword: passwordSchema,
});
export type ChangePasswordBody = z.input<typeof changePasswordBodySchema>;

export const passwordResetBodySchema = z.strictObject({
  username: z
    .string({ error: 'Username is required' })
    .trim()
    .min(1, 'Username is required')
    .max(USERNAME_MAX * 4),
});
export type PasswordResetBody = z.input<typeof passwordResetBodySchema>;

export const passwordResetCompleteBodySchema = z.strictObject({
  token: tokenSchema,
  newPassword: passwordSchema,
});
export type PasswordResetCompleteBody = z.input<typeof passwordResetCompleteBodySchema>;

export const verifyEmailBodySchema = z.strictObject({ token: tokenSchema });

/** What a request that mails something answers: the same words whatever happened. */
export const messageResponseSchema = z.object({ message: z.string() });

export const twoFactorSetupResponseSchema = z.object({
  /** Base32, for typing into an authenticator by hand. */
  secret: z.string(),
  otpauthUrl: z.string(),
  /** An SVG data URL of `otpauthUrl` as a QR code. */
  qrCode: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupResponseSchema>;

/** Turning two-factor on asks for the password: a session left open must not lock its owner out. */
export const twoFactorSetupBodySchema = z.strictObject({ password: currentPasswordSchema });
export const twoFactorCodeBodySchema = z.strictObject({ code: codeSchema });
export const twoFactorDisableBodySchema = z.strictObject({
  password: currentPasswordSchema,
  code: codeSchema,
});
export const recoveryCodesResponseSchema = z.object({ recoveryCodes: z.array(z.string()) });

/** `POST /api/login` for an account with two-factor sign-in: no session yet, a code is due. */
export const twoFactorRequiredSchema = z.object({ twoFactorRequired: z.literal(true) });

/** What a password step answers: the signed-in user, or word that a code is due first. */
export const signInResponseSchema = z.union([publicUserSchema, twoFactorRequiredSchema]);

export const sessionViewSchema = z.object({
  id: z.number().int(),
  /** The session of the browser that asks. */
  current: z.boolean(),
  /** "Chrome 131 on Windows", from the User-Agent; null when the browser sent none. */
  browser: z.string().nullable(),
  address: z.string().nullable(),
  /**
   * "Knoxville, Tennessee, US": where the address was located at sign-in
   * (docs/responsible-play.md).
   */
  place: z.string().nullable(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
});
export type SessionView = z.infer<typeof sessionViewSchema>;

/** `POST /api/user/sessions/revoke-others`: how many other browsers were signed out. */
export const revokeOthersResponseSchema = z.object({ revoked: z.number().int().nonnegative() });

export const sessionIdParamsSchema = z.strictObject({
  // Sessions have 64-bit ids.
  id: idFromText(SECURITY_MESSAGES.sessionNotFound, BIGINT_ID_MAX),
});
