import { useSearch } from 'wouter';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import { OutcomeMessage } from '#client/components/ui/outcome-message.tsx';
import { VerifyEmailPanel } from '#client/features/profile/components/verify-email-panel.tsx';
import { StandalonePage } from '../layout/standalone-page.tsx';

/**
 * /verify-email?token=… (docs/accounts.md#account-security): the mailed link that proves an
 * address; open to everyone.
 */
export function VerifyEmailPage() {
  const token = new URLSearchParams(useSearch()).get('token');
  return (
    <StandalonePage
      title="Verify your e-mail"
      description="Confirm that this address is yours, so that payout updates, security notices and password resets can reach you."
    >
      {token ? (
        <VerifyEmailPanel key={token} token={token} />
      ) : (
        <OutcomeMessage tone="error" takeFocus={false}>
          <p>{SECURITY_MESSAGES.invalidLink}</p>
        </OutcomeMessage>
      )}
    </StandalonePage>
  );
}
