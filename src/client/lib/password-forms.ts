import { changePasswordBodySchema, SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import { passwordSchema } from '#shared/contracts/auth.ts';
import { z } from '#shared/validation.ts';

export const PASSWORD_MISMATCH = 'Passwords do not match';

/**
 * The forms that set a password ask for it twice. The repeat is checked here only: the server
 * receives the new password once, under the contract's rules, which the first field mirrors.
 */
const confirmationSchema = z.string();

function confirmed<T extends { newPassword: string; confirmPassword: string }>(values: T): boolean {
  return values.newPassword === values.confirmPassword;
}

/** The reset page's form: a new password and its repeat. */
export const resetPasswordFormSchema = z
  .object({ newPassword: passwordSchema, confirmPassword: confirmationSchema })
  .refine(confirmed, { message: PASSWORD_MISMATCH, path: ['confirmPassword'] });
export type ResetPasswordValues = z.input<typeof resetPasswordFormSchema>;

/** The profile's Change password form: the current password, then the new one twice. */
export const changePasswordFormSchema = z
  .object({
    currentPassword: changePasswordBodySchema.shape.currentPassword,
    newPassword: passwordSchema,
    confirmPassword: confirmationSchema,
  })
  .refine(confirmed, { message: PASSWORD_MISMATCH, path: ['confirmPassword'] })
  .refine((values) => values.newPassword !== values.currentPassword, {
    message: SECURITY_MESSAGES.samePassword,
    path: ['newPassword'],
  });
export type ChangePasswordValues = z.input<typeof changePasswordFormSchema>;
