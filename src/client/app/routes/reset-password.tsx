import { useSearch } from 'wouter';
import { ForgotPasswordForm } from '#client/features/auth/components/forgot-password-form.tsx';
import { ResetPasswordForm } from '#client/features/auth/components/reset-password-form.tsx';
import { StandalonePage } from '../layout/standalone-page.tsx';

/**
 * /reset-password (docs/accounts.md#account-security): without a token, the request for a link;
 * with the token of a mailed link, the new password. Open to everyone, signed in or not.
 */
export function ResetPasswordPage() {
  const token = new URLSearchParams(useSearch()).get('token');
  return (
    <StandalonePage
      title="Reset your password"
      description={
        token
          ? 'Choose a new password for your account.'
          : 'Enter your username. If the account has a verified e-mail, we will send it a link to choose a new password.'
      }
    >
      {/* Keyed by the token, so that a new link starts from an empty form. */}
      {token ? <ResetPasswordForm key={token} token={token} /> : <ForgotPasswordForm />}
    </StandalonePage>
  );
}
